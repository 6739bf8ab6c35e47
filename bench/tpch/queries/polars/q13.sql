-- polars dialect: the LIKE of the outer join's ON moved into a derived table of orders (polars: "unsupported join constraint expression: Like")
-- TPC-H Q13, validation (default) substitution parameters, qgen -d (dbgen 2.14.0)
select
	c_count,
	count(*) as custdist
from
	(
		select
			c_custkey,
			count(o_orderkey)
		from
			customer left outer join (
				select o_orderkey, o_custkey from orders where o_comment not like '%special%requests%'
			) as o on c_custkey = o_custkey
		group by
			c_custkey
	) as c_orders (c_custkey, c_count)
group by
	c_count
order by
	custdist desc,
	c_count desc;
