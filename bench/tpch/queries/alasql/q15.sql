-- alasql dialect: date arithmetic on literals computed (e.g. '1998-09-02' for date '1998-12-01' - interval '90' day); dates as 'YYYY-MM-DD' text (the tables hold them so); column aliases inside the CTE instead of revenue (supplier_no, total_revenue)
-- TPC-H Q15, validation (default) substitution parameters, qgen -d (dbgen 2.14.0), approved variant A (variants/15a.sql)
with revenue as (
		select
			l_suppkey as supplier_no,
			sum(l_extendedprice * (1-l_discount)) as total_revenue
		from
			lineitem
		where
			l_shipdate >= '1996-01-01'
			and l_shipdate < '1996-04-01'
		group by
			l_suppkey
)

select
	s_suppkey,
	s_name,
	s_address,
	s_phone,
	total_revenue
from
	supplier,
	revenue
where
	s_suppkey = supplier_no
	and total_revenue = (
		select
			max(total_revenue)
		from
			revenue
	)
order by
	s_suppkey;
