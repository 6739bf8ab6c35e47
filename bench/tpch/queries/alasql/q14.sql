-- alasql dialect: date arithmetic on literals computed (e.g. '1998-09-02' for date '1998-12-01' - interval '90' day); dates as 'YYYY-MM-DD' text (the tables hold them so)
-- TPC-H Q14, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	100.00 * sum(case
		when p_type like 'PROMO%'
			then l_extendedprice * (1 - l_discount)
		else 0
	end) / sum(l_extendedprice * (1 - l_discount)) as promo_revenue
from
	lineitem,
	part
where
	l_partkey = p_partkey
	and l_shipdate >= '1995-09-01'
	and l_shipdate < '1995-10-01';
