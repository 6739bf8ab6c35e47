-- polars dialect: interval 'N unit' instead of interval 'N' unit, and the discount bounds written as the literals
-- 0.05 and 0.07 (polars folds .06 - 0.01 and .06 + 0.01 in floating point, 0.049999… and 0.069999…, and loses every
-- row at 0.07: on the SF1 bench data it answered 76005290.23 where DuckDB answers 124293687.64)
-- TPC-H Q6, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	sum(l_extendedprice * l_discount) as revenue
from
	lineitem
where
	l_shipdate >= date '1994-01-01'
	and l_shipdate < date '1994-01-01' + interval '1 years'
	and l_discount between 0.05 and 0.07
	and l_quantity < 24;
