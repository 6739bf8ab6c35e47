-- polars dialect: interval 'N unit' instead of interval 'N' unit (otherwise unchanged)
-- TPC-H Q6, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	sum(l_extendedprice * l_discount) as revenue
from
	lineitem
where
	l_shipdate >= date '1994-01-01'
	and l_shipdate < date '1994-01-01' + interval '1 years'
	and l_discount between .06 - 0.01 and .06 + 0.01
	and l_quantity < 24;
