-- alasql dialect: date arithmetic on literals computed (e.g. '1998-09-02' for date '1998-12-01' - interval '90' day); dates as 'YYYY-MM-DD' text (the tables hold them so)
-- TPC-H Q4, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	o_orderpriority,
	count(*) as order_count
from
	orders
where
	o_orderdate >= '1993-07-01'
	and o_orderdate < '1993-10-01'
	and exists (
		select
			*
		from
			lineitem
		where
			l_orderkey = o_orderkey
			and l_commitdate < l_receiptdate
	)
group by
	o_orderpriority
order by
	o_orderpriority;
