// Differential: GROUPING SETS, ROLLUP, CUBE and GROUPING() vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  { sql: 'SELECT cat, flag, count(*) FROM items GROUP BY GROUPING SETS ((cat, flag), (cat), ())' },
  { sql: 'SELECT grp, cat, count(*), sum(qty), GROUPING(grp, cat) FROM items GROUP BY ROLLUP (grp, cat)' },
  { sql: 'SELECT cat, flag, count(*), avg(price), GROUPING(cat, flag) FROM items GROUP BY CUBE (cat, flag)' },
  { sql: 'SELECT cat, flag, GROUPING(flag, cat), GROUPING(flag), GROUPING(cat) FROM items GROUP BY CUBE (cat, flag)' },
  { sql: 'SELECT cat, flag, grp, count(*), max(d) FROM items GROUP BY cat, ROLLUP (flag, grp)' },
  { sql: 'SELECT cat, flag, count(*) FROM items GROUP BY GROUPING SETS (cat, flag)' },
  { sql: 'SELECT cat, flag, grp, count(*) FROM items GROUP BY ROLLUP ((cat, flag), grp)' },
  { sql: 'SELECT cat, flag, grp, min(qty) FROM items GROUP BY GROUPING SETS (ROLLUP (cat), CUBE (flag, grp))' },
  { sql: 'SELECT cat, grp, count(*) FROM items GROUP BY CUBE (cat), ROLLUP (grp)' },
  { sql: 'SELECT grp, count(*) FROM items WHERE id < 0 GROUP BY ROLLUP (grp)' },
  { sql: 'SELECT cat, count(*), sum(big) FROM items GROUP BY GROUPING SETS ((cat), ())' },
  {
    sql: 'SELECT cat, sum(qty), GROUPING(cat) FROM items GROUP BY ROLLUP (cat) HAVING GROUPING(cat) = 1 OR sum(qty) > 31000',
  },
  {
    sql: 'SELECT cat, count(*) AS n, GROUPING(cat) AS g FROM items GROUP BY ROLLUP (cat) ORDER BY g DESC, n',
  },
  { sql: "SELECT cat, flag, count(*) FROM items GROUP BY cat, ROLLUP (flag) HAVING cat = 'beta' OR flag IS NULL" },
  {
    sql: 'SELECT grp % 3, cat, count(*) FILTER (WHERE flag), count(DISTINCT name) FROM items GROUP BY ROLLUP (grp % 3, cat)',
  },
  {
    sql: 'SELECT l_returnflag, l_linestatus, l_shipmode, sum(l_quantity), count(*) FROM lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus), l_shipmode',
  },
  { sql: 'SELECT l_returnflag, l_shipmode, avg(l_discount) FROM lineitem GROUP BY CUBE (l_returnflag, l_shipmode)' },
  { sql: 'SELECT s, count(*), GROUPING(s) FROM specials GROUP BY ROLLUP (s)' },
  { sql: 'SELECT g, count(*) FROM specials GROUP BY CUBE (g)' },
  { sql: 'SELECT count(*), sum(qty) FROM items GROUP BY ()' },
];

differentialSuite('grouping-sets', cases);
