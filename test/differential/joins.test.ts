// Differential: joins of every type, USING, derived tables, CTEs and join ordering vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  // Inner joins, explicit and comma, with and without extra conditions
  { sql: 'SELECT i.id, s.k, s.s FROM items i JOIN specials s ON i.id = s.k ORDER BY i.id' },
  { sql: 'SELECT i.id, s.k FROM items i, specials s WHERE i.id = s.k AND s.i32 > 0 ORDER BY i.id' },
  { sql: 'SELECT count(*) FROM items i JOIN specials s ON i.grp = s.k' },
  {
    sql: 'SELECT s.k, count(*) AS n, sum(i.qty) AS q FROM items i JOIN specials s ON i.grp = s.k GROUP BY s.k ORDER BY s.k',
  },
  { sql: 'SELECT count(*) FROM items i INNER JOIN items j ON i.id = j.id' },
  { sql: 'SELECT count(*) FROM items i JOIN items j ON i.grp = j.grp AND i.id < j.id WHERE i.id < 300' },
  { sql: 'SELECT a.id, b.id FROM items a JOIN items b ON a.id + 1 = b.id WHERE a.id <= 5 ORDER BY a.id' },
  { sql: 'SELECT i.cat, count(*) FROM items i JOIN specials s ON i.name = s.s GROUP BY i.cat ORDER BY 1 NULLS FIRST' },
  { sql: 'SELECT count(*) FROM items i JOIN lineitem l ON i.id = l.l_orderkey' },
  { sql: 'SELECT count(*), sum(l.l_quantity) FROM items i JOIN lineitem l ON i.id = l.l_orderkey AND i.qty > 25' },
  // Keys of different types meet (int32 = int64, int = decimal)
  { sql: 'SELECT count(*) FROM items i JOIN specials s ON i.big = s.i64' },
  { sql: 'SELECT s.k, i.id FROM specials s JOIN items i ON s.i32 = i.id ORDER BY s.k, i.id' },
  { sql: 'SELECT s.k, t.k FROM specials s JOIN specials t ON s.m = t.m ORDER BY s.k, t.k' },
  { sql: 'SELECT s.k, t.k FROM specials s JOIN specials t ON s.f = t.f ORDER BY s.k, t.k' },
  { sql: 'SELECT s.k, t.k FROM specials s JOIN specials t ON s.s = t.s ORDER BY s.k, t.k' },
  { sql: 'SELECT s.k, t.k FROM specials s JOIN specials t ON s.d = t.d ORDER BY s.k, t.k' },
  { sql: 'SELECT s.k, t.k FROM specials s JOIN specials t ON s.i64 = t.i64 ORDER BY s.k, t.k' },
  // Multi-column keys
  {
    sql: 'SELECT count(*) FROM items a JOIN items b ON a.grp = b.grp AND a.cat = b.cat WHERE a.id < 200 AND b.id < 200',
  },
  {
    sql: 'SELECT l1.l_orderkey, l1.l_linenumber FROM lineitem l1 JOIN lineitem l2 ON l1.l_orderkey = l2.l_orderkey AND l1.l_linenumber = l2.l_linenumber + 1 WHERE l1.l_orderkey < 20 ORDER BY 1, 2',
  },
  // Outer joins
  { sql: 'SELECT s.k, i.id FROM specials s LEFT JOIN items i ON i.id = s.i32 ORDER BY s.k, i.id' },
  { sql: 'SELECT s.k, i.id, i.qty FROM specials s LEFT JOIN items i ON i.id = s.k AND i.qty > 25 ORDER BY s.k' },
  { sql: 'SELECT s.k, i.id FROM items i RIGHT JOIN specials s ON i.id = s.i32 ORDER BY s.k, i.id' },
  {
    sql: 'SELECT s.k, t.k FROM specials s FULL JOIN specials t ON s.i32 = t.k ORDER BY s.k NULLS FIRST, t.k NULLS FIRST',
  },
  { sql: 'SELECT count(*), count(i.id), count(s.k) FROM items i FULL OUTER JOIN specials s ON i.id = s.i32' },
  { sql: 'SELECT s.k FROM specials s LEFT JOIN items i ON i.id = s.i32 WHERE i.id IS NULL ORDER BY s.k' },
  { sql: 'SELECT s.k, coalesce(i.qty, -1) FROM specials s LEFT JOIN items i ON i.id = s.i32 ORDER BY s.k' },
  {
    sql: 'SELECT i.grp, count(s.k) FROM items i LEFT JOIN specials s ON s.k = i.grp AND s.i32 > 0 GROUP BY i.grp ORDER BY 1 NULLS FIRST',
  },
  {
    sql: 'SELECT s.k, t.k FROM specials s LEFT JOIN specials t ON s.k < t.k AND t.k <= 3 ORDER BY s.k, t.k NULLS FIRST',
  },
  { sql: 'SELECT count(*) FROM specials s LEFT JOIN specials t ON false' },
  { sql: 'SELECT count(*) FROM specials s FULL JOIN specials t ON s.k = t.k + 100' },
  // Cross joins and non-equi conditions (nested loop)
  { sql: 'SELECT count(*) FROM specials a CROSS JOIN specials b' },
  { sql: 'SELECT count(*) FROM specials a, specials b, specials c WHERE a.k < b.k AND b.k < c.k' },
  { sql: 'SELECT a.k, b.k FROM specials a JOIN specials b ON a.i32 < b.i32 ORDER BY a.k, b.k' },
  {
    sql: 'SELECT a.k, count(b.k) FROM specials a LEFT JOIN specials b ON a.k BETWEEN b.k - 1 AND b.k + 1 GROUP BY a.k ORDER BY a.k',
  },
  { sql: 'SELECT count(*) FROM items i JOIN specials s ON i.qty > s.k * 4' },
  // NATURAL joins (parser gap: rewritten to USING) and a comma after JOIN … ON (parser gap: CROSS JOIN)
  // `*` lists the common columns first in the left table's order (PostgreSQL; DuckDB keeps the left's own order)
  {
    sql: 'SELECT * FROM specials a NATURAL JOIN (SELECT k, s, 1 AS one FROM specials WHERE k > 4) b ORDER BY k',
    duckdb:
      'SELECT k, s, i32, i64, f, m, d, g, one FROM specials a NATURAL JOIN (SELECT k, s, 1 AS one FROM specials WHERE k > 4) b ORDER BY k',
  },
  {
    sql: 'SELECT k, b.x FROM specials a NATURAL LEFT JOIN (SELECT k, i32 AS x FROM specials WHERE k > 7) b ORDER BY k',
  },
  { sql: 'SELECT a.k, c.k FROM specials a JOIN specials b ON a.k = b.k, specials c WHERE c.k = a.k + 1 ORDER BY 1' },
  { sql: 'SELECT a.k, c.k FROM specials a LEFT JOIN specials b ON a.k = b.i32, specials c WHERE c.k = a.k ORDER BY 1' },
  // USING and derived tables
  { sql: 'SELECT k, a.s, b.s FROM specials a JOIN specials b USING (k) ORDER BY k' },
  { sql: 'SELECT * FROM specials a JOIN (SELECT k, i32 AS x FROM specials) b USING (k) ORDER BY k' },
  {
    sql: 'SELECT k, b.x FROM specials a LEFT JOIN (SELECT k, i32 AS x FROM specials WHERE k > 5) b USING (k) ORDER BY k',
  },
  {
    sql: 'SELECT k FROM (SELECT k FROM specials WHERE k < 5) a FULL JOIN (SELECT k FROM specials WHERE k > 3) b USING (k) ORDER BY k',
  },
  {
    sql: 'SELECT t.g, t.n FROM (SELECT grp AS g, count(*) AS n FROM items GROUP BY grp) t WHERE t.n > 400 ORDER BY t.g NULLS FIRST',
  },
  { sql: 'SELECT x.a, x.b FROM (SELECT k, k * 2 FROM specials) AS x(a, b) WHERE x.b > 10 ORDER BY x.a' },
  {
    sql: 'SELECT t.grp, t.n, s.s FROM (SELECT grp, count(*) AS n FROM items GROUP BY grp) t JOIN specials s ON s.k = t.grp ORDER BY t.grp',
  },
  {
    sql: 'SELECT count(*) FROM (SELECT * FROM items WHERE qty > 10) a JOIN (SELECT * FROM items WHERE qty < 20) b ON a.id = b.id',
  },
  { sql: 'SELECT * FROM (SELECT k FROM specials ORDER BY k DESC LIMIT 3) t ORDER BY k' },
  // Several tables: the join order rule must find the connected order
  {
    sql: 'SELECT count(*) FROM specials s, items i, lineitem l WHERE l.l_orderkey = i.id AND i.grp = s.k AND s.k < 5',
  },
  {
    sql: "SELECT s.k, sum(l.l_extendedprice) FROM lineitem l, items i, specials s, specials t WHERE l.l_orderkey = i.id AND i.grp = s.k AND t.k = s.k AND l.l_shipmode = 'MAIL' GROUP BY s.k ORDER BY s.k",
  },
  {
    sql: 'SELECT count(*) FROM items a JOIN items b ON a.id = b.id JOIN items c ON b.id = c.id JOIN items d ON c.id = d.id WHERE d.qty = 7',
  },
  // Common table expressions
  { sql: 'WITH t AS (SELECT k, s FROM specials WHERE k <= 4) SELECT * FROM t ORDER BY k' },
  { sql: 'WITH t(a, b) AS (SELECT k, i32 FROM specials) SELECT a, b FROM t WHERE b > 0 ORDER BY a' },
  {
    sql: 'WITH t AS (SELECT grp, count(*) AS n FROM items GROUP BY grp) SELECT a.grp, b.grp FROM t a JOIN t b ON a.n = b.n AND a.grp < b.grp ORDER BY 1, 2',
  },
  { sql: 'WITH t AS (SELECT k FROM specials) SELECT (SELECT count(*) FROM t), (SELECT max(k) FROM t)' },
  {
    sql: 'WITH a AS (SELECT k FROM specials WHERE k < 6), b AS (SELECT k FROM a WHERE k > 2) SELECT * FROM b ORDER BY k',
  },
  { sql: 'WITH a AS (SELECT 1 AS x) SELECT * FROM (WITH a AS (SELECT 2 AS x) SELECT x FROM a) t, a' },
  {
    sql: 'WITH t AS (SELECT k FROM specials) SELECT k FROM t WHERE k > 5 UNION ALL SELECT k FROM t WHERE k < 3 ORDER BY k',
  },
];

differentialSuite('joins', cases);
