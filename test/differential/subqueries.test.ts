// Differential: subqueries (scalar, EXISTS, IN, correlated and not) in WHERE, SELECT and HAVING vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  // Uncorrelated scalar subqueries
  { sql: 'SELECT (SELECT max(k) FROM specials)' },
  { sql: 'SELECT id FROM items WHERE qty = (SELECT max(qty) FROM items) AND id < 200 ORDER BY id' },
  { sql: 'SELECT count(*) FROM items WHERE f > (SELECT avg(f) FROM items)' },
  { sql: 'SELECT k, k - (SELECT min(k) FROM specials) FROM specials ORDER BY k' },
  { sql: 'SELECT (SELECT k FROM specials WHERE k = 100)' },
  { sql: 'SELECT k FROM specials WHERE i32 > (SELECT i32 FROM specials WHERE k = 6) ORDER BY k' },
  {
    sql: 'SELECT grp, count(*) FROM items GROUP BY grp HAVING count(*) > (SELECT count(*) / 11 FROM items) ORDER BY grp NULLS FIRST',
  },
  // Correlated scalar subqueries
  { sql: 'SELECT s.k, (SELECT count(*) FROM items i WHERE i.grp = s.k) FROM specials s ORDER BY s.k' },
  { sql: 'SELECT s.k, (SELECT sum(i.qty) FROM items i WHERE i.grp = s.k) FROM specials s ORDER BY s.k' },
  {
    sql: 'SELECT s.k, (SELECT coalesce(sum(i.qty), 0) FROM items i WHERE i.grp = s.k AND i.qty > 48) FROM specials s ORDER BY s.k',
  },
  { sql: 'SELECT s.k, (SELECT count(i.id) + 1 FROM items i WHERE i.grp = s.k) FROM specials s ORDER BY s.k' },
  {
    sql: 'SELECT i.id FROM items i WHERE i.qty > (SELECT avg(j.qty) FROM items j WHERE j.grp = i.grp) + 20 ORDER BY i.id',
  },
  {
    sql: 'SELECT l.l_orderkey, l.l_linenumber FROM lineitem l WHERE l.l_quantity = (SELECT max(m.l_quantity) FROM lineitem m WHERE m.l_orderkey = l.l_orderkey) AND l.l_orderkey < 40 ORDER BY 1, 2',
  },
  { sql: 'SELECT s.k, (SELECT max(t.k) FROM specials t WHERE t.k < s.k) FROM specials s ORDER BY s.k' },
  {
    sql: 'SELECT s.k, (SELECT count(*) FROM specials t WHERE t.k < s.k AND t.i32 > s.i32) FROM specials s ORDER BY s.k',
  },
  {
    sql: 'SELECT k FROM specials s WHERE m > (SELECT avg(t.m) FROM specials t WHERE t.k <> s.k AND t.k > 2) ORDER BY k',
  },
  {
    sql: 'SELECT i.grp, sum(i.qty) FROM items i GROUP BY i.grp HAVING sum(i.qty) > (SELECT sum(j.qty) / 10 FROM items j WHERE j.grp IS NOT NULL) ORDER BY 1',
  },
  // EXISTS / NOT EXISTS
  { sql: 'SELECT k FROM specials s WHERE EXISTS (SELECT 1 FROM items i WHERE i.id = s.i32) ORDER BY k' },
  { sql: 'SELECT k FROM specials s WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = s.i32) ORDER BY k' },
  { sql: 'SELECT count(*) FROM items i WHERE EXISTS (SELECT * FROM specials s WHERE s.k = i.grp AND s.i32 > 0)' },
  { sql: 'SELECT count(*) FROM items i WHERE NOT EXISTS (SELECT * FROM specials s WHERE s.k = i.grp)' },
  { sql: 'SELECT k FROM specials WHERE EXISTS (SELECT 1 FROM specials WHERE k > 100) ORDER BY k' },
  { sql: 'SELECT count(*) FROM specials WHERE NOT EXISTS (SELECT 1 FROM specials WHERE k > 100)' },
  {
    sql: 'SELECT l1.l_orderkey FROM lineitem l1 WHERE EXISTS (SELECT 1 FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_linenumber <> l1.l_linenumber AND l2.l_shipmode = l1.l_shipmode) AND l1.l_orderkey < 100 ORDER BY 1',
  },
  {
    sql: 'SELECT count(*) FROM lineitem l1 WHERE NOT EXISTS (SELECT 1 FROM lineitem l2 WHERE l2.l_orderkey = l1.l_orderkey AND l2.l_linenumber > l1.l_linenumber)',
  },
  { sql: 'SELECT k FROM specials s WHERE EXISTS (SELECT 1 FROM items i WHERE i.id = s.k LIMIT 1) ORDER BY k' },
  // IN / NOT IN, with NULLs on either side
  { sql: 'SELECT count(*) FROM items WHERE grp IN (SELECT k FROM specials WHERE k < 4)' },
  { sql: 'SELECT count(*) FROM items WHERE grp NOT IN (SELECT k FROM specials WHERE k < 4)' },
  { sql: 'SELECT count(*) FROM items WHERE grp NOT IN (SELECT i32 FROM specials)' },
  { sql: 'SELECT count(*) FROM items WHERE id NOT IN (SELECT i32 FROM specials WHERE i32 IS NOT NULL)' },
  { sql: 'SELECT count(*) FROM items WHERE id NOT IN (SELECT i32 FROM specials WHERE k > 100)' },
  { sql: 'SELECT k FROM specials WHERE i32 IN (SELECT id FROM items) ORDER BY k' },
  { sql: 'SELECT k FROM specials WHERE i32 NOT IN (SELECT id FROM items) ORDER BY k' },
  { sql: 'SELECT k FROM specials WHERE s IN (SELECT name FROM items) ORDER BY k' },
  { sql: 'SELECT k FROM specials WHERE m IN (SELECT price FROM items) ORDER BY k' },
  { sql: 'SELECT count(*) FROM items WHERE grp = ANY (SELECT k FROM specials WHERE k > 6)' },
  { sql: 'SELECT count(*) FROM items WHERE grp <> ALL (SELECT k FROM specials WHERE k > 6)' },
  {
    sql: 'SELECT count(*) FROM lineitem l WHERE l.l_linenumber IN (SELECT m.l_linenumber FROM lineitem m WHERE m.l_orderkey = l.l_orderkey + 1)',
  },
  // Quantified comparisons: op ANY / SOME / ALL, correlated or not, in WHERE, SELECT and HAVING
  { sql: 'SELECT count(*) FROM items WHERE qty > ALL (SELECT i32 FROM specials WHERE k BETWEEN 3 AND 5)' },
  { sql: 'SELECT count(*) FROM items WHERE qty > ALL (SELECT i32 FROM specials)' },
  { sql: 'SELECT count(*) FROM items WHERE qty >= ANY (SELECT k * 10 FROM specials)' },
  { sql: 'SELECT count(*) FROM items WHERE grp <> SOME (SELECT k FROM specials WHERE k = 3)' },
  { sql: 'SELECT count(*) FROM items WHERE grp = ALL (SELECT k FROM specials WHERE k = 3)' },
  { sql: 'SELECT k FROM specials WHERE NOT (i32 < ALL (SELECT grp FROM items)) ORDER BY k' },
  { sql: 'SELECT s.k, s.i32 > ALL (SELECT t.i32 FROM specials t WHERE t.k < s.k) FROM specials s ORDER BY s.k' },
  {
    sql: 'SELECT s.k, s.i32 >= ANY (SELECT t.i32 FROM specials t WHERE t.s = s.s OR t.k = s.k + 1) FROM specials s ORDER BY s.k',
  },
  { sql: 'SELECT s.k, s.s < ANY (SELECT name FROM items i WHERE i.grp = s.k) FROM specials s ORDER BY s.k' },
  {
    sql: 'SELECT i.grp, sum(i.qty) FROM items i GROUP BY i.grp HAVING min(i.qty) < ALL (SELECT s.k FROM specials s WHERE s.k > i.grp) ORDER BY 1',
  },
  {
    sql: 'SELECT l.l_orderkey, l.l_linenumber FROM lineitem l WHERE l.l_quantity >= ALL (SELECT m.l_quantity FROM lineitem m WHERE m.l_orderkey = l.l_orderkey) AND l.l_orderkey < 60 ORDER BY 1, 2',
  },
  {
    sql: 'SELECT count(*) FROM lineitem l WHERE l.l_quantity > ANY (SELECT m.l_quantity FROM lineitem m WHERE m.l_orderkey = l.l_orderkey AND m.l_shipmode = l.l_shipmode)',
  },
  // ORDER BY / LIMIT / OFFSET in correlated subqueries (the first rows per correlation key)
  {
    sql: 'SELECT o.k, (SELECT i.qty FROM items i WHERE i.grp = o.k ORDER BY i.qty DESC, i.id LIMIT 1) FROM specials o ORDER BY o.k',
  },
  {
    sql: 'SELECT o.k, (SELECT i.id FROM items i WHERE i.grp = o.k ORDER BY i.qty DESC, i.id LIMIT 1 OFFSET 2) FROM specials o ORDER BY o.k',
  },
  {
    sql: 'SELECT o.k, (SELECT t.s FROM specials t WHERE t.k < o.k ORDER BY t.k DESC LIMIT 1) FROM specials o ORDER BY o.k',
  },
  {
    sql: 'SELECT l.l_orderkey, (SELECT m.l_quantity FROM lineitem m WHERE m.l_orderkey = l.l_orderkey ORDER BY m.l_quantity DESC, m.l_linenumber LIMIT 1) AS top FROM lineitem l WHERE l.l_linenumber = 1 ORDER BY 1',
  },
  {
    sql: 'SELECT o.k FROM specials o WHERE o.k IN (SELECT i.qty FROM items i WHERE i.grp = o.k ORDER BY i.id LIMIT 3) ORDER BY o.k',
  },
  {
    sql: 'SELECT o.k FROM specials o WHERE EXISTS (SELECT 1 FROM items i WHERE i.grp = o.k ORDER BY i.id OFFSET 600) ORDER BY o.k',
  },
  // Subqueries in JOIN … ON (inner: filtered cross product; outer: beside the side they read; DuckDB rejects
  // most outer-join forms, which subqueries.slt checks against PostgreSQL)
  {
    sql: 'SELECT s.k, i.id FROM specials s JOIN items i ON i.id = s.k AND EXISTS (SELECT 1 FROM items j WHERE j.grp = s.k AND j.qty = i.qty) ORDER BY 1, 2',
  },
  {
    sql: 'SELECT s.k, i.id FROM specials s JOIN items i ON i.id = (SELECT max(j.id) FROM items j WHERE j.grp = s.k) ORDER BY 1, 2',
  },
  {
    sql: 'SELECT s.k, i.id FROM specials s LEFT JOIN items i ON i.id = s.k AND i.qty > (SELECT avg(qty) FROM items) ORDER BY 1, 2',
  },
  // Correlated references two levels up and in a subquery's derived tables (DuckDB rejects correlated
  // references in a subquery's outer join: subqueries.slt checks those against PostgreSQL)
  {
    sql: 'SELECT s.k FROM specials s WHERE EXISTS (SELECT 1 FROM items i WHERE i.grp = s.k AND EXISTS (SELECT 1 FROM specials t WHERE t.k = i.qty AND t.i32 = s.i32)) ORDER BY 1',
  },
  {
    sql: 'SELECT s.k, (SELECT count(*) FROM items i WHERE i.grp = s.k AND i.qty IN (SELECT t.k * 5 FROM specials t WHERE t.k < s.k)) FROM specials s ORDER BY 1',
  },
  {
    sql: 'SELECT s.k, (SELECT sum(d.q) FROM (SELECT i.qty AS q FROM items i WHERE i.grp = s.k AND i.id < 100) d) FROM specials s ORDER BY 1',
  },
  // LATERAL derived tables and outer columns in a subquery's select list
  {
    sql: 'SELECT s.k, x.id FROM specials s, LATERAL (SELECT i.id FROM items i WHERE i.grp = s.k AND i.qty > 48) x ORDER BY 1, 2',
  },
  {
    sql: 'SELECT s.k, x.id FROM specials s LEFT JOIN LATERAL (SELECT i.id FROM items i WHERE i.grp = s.k ORDER BY i.qty DESC, i.id LIMIT 2) x ON true ORDER BY 1, 2',
  },
  {
    sql: 'SELECT s.k, x.n, x.m FROM specials s, LATERAL (SELECT count(*) AS n, max(i.qty) AS m FROM items i WHERE i.grp = s.k AND i.id < 40) x ORDER BY 1',
  },
  {
    sql: 'SELECT s.k, x.n FROM specials s CROSS JOIN LATERAL (SELECT count(*) + 1 AS n FROM specials t WHERE t.k < s.k) x ORDER BY 1',
  },
  { sql: 'SELECT s.k, x.z FROM specials s, LATERAL (SELECT s.k * 10 AS z) x ORDER BY 1' },
  {
    sql: 'SELECT s.k, y.v FROM specials s, LATERAL (SELECT i.id FROM items i WHERE i.grp = s.k ORDER BY i.id LIMIT 1) x, LATERAL (SELECT j.qty AS v FROM items j WHERE j.id = x.id + s.k) y ORDER BY 1',
  },
  { sql: 'SELECT s.k, (SELECT count(*) + s.k FROM items i WHERE i.grp = s.k) FROM specials s ORDER BY 1' },
  // Correlated [NOT] IN over nullable columns (mark join + the subquery's counts per key)
  {
    sql: 'SELECT s.k, s.i32 IN (SELECT t.i32 FROM specials t WHERE t.k > s.k), s.i32 NOT IN (SELECT t.i32 FROM specials t WHERE t.k > s.k) FROM specials s ORDER BY 1',
  },
  { sql: 'SELECT s.k FROM specials s WHERE s.i32 NOT IN (SELECT t.i32 FROM specials t WHERE t.k > s.k) ORDER BY 1' },
  { sql: 'SELECT count(*) FROM items i WHERE i.grp NOT IN (SELECT t.i32 FROM specials t WHERE t.k = i.qty)' },
  // EXISTS / IN over an aggregate without GROUP BY: one row per outer row (COUNT 0 where none correlate)
  { sql: 'SELECT s.k FROM specials s WHERE EXISTS (SELECT count(*) FROM items i WHERE i.grp = s.k) ORDER BY 1' },
  { sql: 'SELECT s.k FROM specials s WHERE s.k - 10 IN (SELECT count(*) FROM items i WHERE i.grp = s.k) ORDER BY 1' },
  // Subqueries inside aggregate arguments and FILTER
  {
    sql: 'SELECT count(*), sum((SELECT m.l_extendedprice FROM lineitem m WHERE m.l_orderkey = l.l_orderkey ORDER BY m.l_extendedprice LIMIT 1 OFFSET 1)) FROM lineitem l',
  },
  {
    sql: 'SELECT i.grp, sum((SELECT count(*) FROM specials t WHERE t.k < i.qty)) FROM items i WHERE i.id < 200 GROUP BY i.grp ORDER BY 1',
  },
  // Non-equalities two query levels up
  {
    sql: 'SELECT s.k, (SELECT max(i.qty) FROM items i WHERE i.grp = s.k AND i.qty < (SELECT max(t.k) * 5 FROM specials t WHERE t.k <> s.k)) FROM specials s ORDER BY 1',
  },
  {
    sql: 'SELECT s.k, (SELECT count(*) FROM items i WHERE i.grp < 3 AND i.qty < (SELECT count(*) FROM specials t WHERE t.k < s.k AND t.i32 <> i.grp)) FROM specials s ORDER BY 1',
  },
  // A subquery condition over columns of two outer tables (the distinct outer values name each column apart)
  {
    sql: 'SELECT a.k, b.k, (SELECT max(i.qty) FROM items i WHERE i.grp = a.k AND a.i32 >= b.i32) FROM specials a, specials b ORDER BY 1, 2',
  },
  // Set operations in correlated subqueries
  {
    sql: 'SELECT s.k, (SELECT count(*) FROM (SELECT i.cat FROM items i WHERE i.grp = s.k AND i.id < 200 UNION SELECT t.s FROM specials t WHERE t.k = s.k) u) FROM specials s ORDER BY 1',
  },
  {
    sql: 'SELECT s.k, (SELECT count(*) FROM (SELECT i.qty FROM items i WHERE i.grp = s.k AND i.id < 500 EXCEPT SELECT t.k FROM specials t WHERE t.k > s.k) u) FROM specials s ORDER BY 1',
  },
  // IN / EXISTS as values (mark joins): in SELECT, under OR, negated, with NULL results
  { sql: 'SELECT k, i32 IN (SELECT id FROM items WHERE id < 6) FROM specials ORDER BY k' },
  { sql: 'SELECT k, i32 NOT IN (SELECT grp FROM items) FROM specials ORDER BY k' },
  { sql: 'SELECT k, i32 IN (SELECT i32 FROM specials WHERE k > 3) FROM specials ORDER BY k' },
  { sql: 'SELECT k, EXISTS (SELECT 1 FROM items i WHERE i.grp = s.k) FROM specials s ORDER BY k' },
  { sql: 'SELECT k FROM specials s WHERE k = 1 OR EXISTS (SELECT 1 FROM items i WHERE i.id = s.i32) ORDER BY k' },
  { sql: 'SELECT k FROM specials WHERE k > 8 OR i32 IN (SELECT id FROM items) ORDER BY k' },
  { sql: 'SELECT count(*) FROM items WHERE qty < 5 OR grp NOT IN (SELECT k FROM specials WHERE k > 2)' },
  // Nested subqueries
  {
    sql: 'SELECT k FROM specials WHERE k IN (SELECT grp FROM items WHERE id IN (SELECT i32 FROM specials WHERE i32 BETWEEN 1 AND 100)) ORDER BY k',
  },
  {
    sql: 'SELECT s.k FROM specials s WHERE EXISTS (SELECT 1 FROM items i WHERE i.grp = s.k AND i.qty > (SELECT avg(qty) FROM items)) ORDER BY s.k',
  },
  {
    sql: 'SELECT s.k, (SELECT count(*) FROM items i WHERE i.grp = s.k AND i.id IN (SELECT i32 FROM specials)) FROM specials s ORDER BY s.k',
  },
  // Subqueries in FROM and joins together
  {
    sql: 'SELECT t.grp, t.n FROM (SELECT grp, count(*) AS n FROM items WHERE grp IN (SELECT k FROM specials) GROUP BY grp) t ORDER BY 1',
  },
  {
    sql: 'SELECT s.k, x.c FROM specials s JOIN (SELECT grp, count(*) AS c FROM items GROUP BY grp) x ON x.grp = s.k WHERE x.c > (SELECT avg(c) FROM (SELECT count(*) AS c FROM items GROUP BY grp) y) ORDER BY s.k',
  },
];

differentialSuite('subqueries', cases);
