// Differential: TPC-H Q1 and Q6 shapes (and variants) over the generated mini lineitem vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const q1 = (cutoff: string) => `
SELECT l_returnflag, l_linestatus,
  sum(l_quantity) AS sum_qty,
  sum(l_extendedprice) AS sum_base_price,
  sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
  sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
  avg(l_quantity) AS avg_qty,
  avg(l_extendedprice) AS avg_price,
  avg(l_discount) AS avg_disc,
  count(*) AS count_order
FROM lineitem
WHERE l_shipdate <= DATE '${cutoff}' - INTERVAL '90' DAY
GROUP BY l_returnflag, l_linestatus
ORDER BY l_returnflag, l_linestatus`;

const q6 = (year: string, discount: string, quantity: number) => `
SELECT sum(l_extendedprice * l_discount) AS revenue
FROM lineitem
WHERE l_shipdate >= DATE '${year}-01-01'
  AND l_shipdate < DATE '${year}-01-01' + INTERVAL '1' YEAR
  AND l_discount BETWEEN ${discount} - 0.01 AND ${discount} + 0.01
  AND l_quantity < ${quantity}`;

const cases: DiffCase[] = [
  { sql: q1('1998-12-01') },
  { sql: q1('1995-06-17') },
  { sql: q1('1993-01-01') },
  { sql: q6('1994', '0.06', 24) },
  { sql: q6('1993', '0.05', 25) },
  { sql: q6('1997', '0.02', 50) },
  {
    sql: `SELECT l_shipmode,
  sum(CASE WHEN l_quantity > 25 THEN 1 ELSE 0 END) AS big_lines,
  sum(CASE WHEN l_quantity <= 25 THEN 1 ELSE 0 END) AS small_lines
FROM lineitem
WHERE l_shipmode IN ('MAIL', 'SHIP') AND l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
GROUP BY l_shipmode
ORDER BY l_shipmode`,
  },
  {
    sql: `SELECT EXTRACT(YEAR FROM l_shipdate) AS year, sum(l_extendedprice * (1 - l_discount)) AS volume
FROM lineitem GROUP BY 1 ORDER BY 1`,
  },
  {
    sql: 'SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem GROUP BY l_orderkey ORDER BY revenue DESC, l_orderkey LIMIT 10',
  },
];

differentialSuite('tpch', cases);
