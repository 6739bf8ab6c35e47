-- polars dialect: interval 'N unit' instead of interval 'N' unit (otherwise unchanged)
-- TPC-H Q4, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	o_orderpriority,
	count(*) as order_count
from
	orders
where
	o_orderdate >= date '1993-07-01'
	and o_orderdate < date '1993-07-01' + interval '3 months'
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
