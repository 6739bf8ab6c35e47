-- polars dialect: interval 'N unit' instead of interval 'N' unit; total_revenue IN (scalar subquery) for = (polars: "subquery comparisons with '=' are not supported; use 'IN' instead")
-- TPC-H Q15, validation (default) substitution parameters, qgen -d (dbgen 2.14.0), approved variant A (variants/15a.sql)
with revenue (supplier_no, total_revenue) as (
		select
			l_suppkey,
			sum(l_extendedprice * (1-l_discount))
		from
			lineitem
		where
			l_shipdate >= date '1996-01-01'
			and l_shipdate < date '1996-01-01' + interval '3 months'
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
	and total_revenue in (
		select
			max(total_revenue)
		from
			revenue
	)
order by
	s_suppkey;
