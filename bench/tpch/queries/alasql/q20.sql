-- alasql dialect: date arithmetic on literals computed (e.g. '1998-09-02' for date '1998-12-01' - interval '90' day); dates as 'YYYY-MM-DD' text (the tables hold them so)
-- TPC-H Q20, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	s_name,
	s_address
from
	supplier,
	nation
where
	s_suppkey in (
		select
			ps_suppkey
		from
			partsupp
		where
			ps_partkey in (
				select
					p_partkey
				from
					part
				where
					p_name like 'forest%'
			)
			and ps_availqty > (
				select
					0.5 * sum(l_quantity)
				from
					lineitem
				where
					l_partkey = ps_partkey
					and l_suppkey = ps_suppkey
					and l_shipdate >= '1994-01-01'
					and l_shipdate < '1995-01-01'
			)
	)
	and s_nationkey = n_nationkey
	and n_name = 'CANADA'
order by
	s_name;
