-- alasql dialect: date arithmetic on literals computed (e.g. '1998-09-02' for date '1998-12-01' - interval '90' day); dates as 'YYYY-MM-DD' text (the tables hold them so)
-- TPC-H Q6, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	sum(l_extendedprice * l_discount) as revenue
from
	lineitem
where
	l_shipdate >= '1994-01-01'
	and l_shipdate < '1995-01-01'
	and l_discount between .06 - 0.01 and .06 + 0.01
	and l_quantity < 24;
