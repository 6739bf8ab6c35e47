// Differential: the forms of the hash tables under joins and GROUP BY (a direct array over dense integer keys,
// hashing for sparse, fractional or huge keys, a switch between them mid-stream) and the late copying of join
// and filter output columns (gathered on first read, composed through several joins, NULL-padded), vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  // Dense join keys (direct array), build side with duplicates and NULL keys
  { sql: 'SELECT count(*), sum(b.qty) FROM items a JOIN items b ON a.id = b.grp + 1' },
  { sql: 'SELECT a.grp, count(*) FROM items a JOIN items b ON a.grp = b.grp GROUP BY a.grp ORDER BY 1' },
  // Negative keys, sparse keys, fractions, huge int64 keys (hashing)
  { sql: 'SELECT count(*) FROM items a JOIN items b ON a.qty - 40 = b.qty - 40 WHERE a.id < 300' },
  {
    sql: 'SELECT count(*) FROM items a JOIN items b ON CAST(a.id AS bigint) * 1000003 = CAST(b.id AS bigint) * 1000003',
  },
  { sql: 'SELECT count(*), count(DISTINCT a.id) FROM items a JOIN items b ON a.big = b.big' },
  { sql: 'SELECT count(*) FROM items a JOIN items b ON a.f = b.f' },
  { sql: 'SELECT s.k, t.k FROM specials s JOIN specials t ON s.i32 = t.i32 ORDER BY 1, 2' },
  // Dense keys first, then a batch that is not (the probe side first sees small ids, then huge ones)
  {
    sql: 'SELECT count(*) FROM items a JOIN (SELECT CASE WHEN id > 4000 THEN CAST(id AS bigint) * 1000000 ELSE id END AS k FROM items) b ON a.id = b.k',
  },
  // GROUP BY over dense, negative, sparse and mixed keys
  { sql: 'SELECT id % 50 - 25 AS k, count(*) FROM items GROUP BY 1 ORDER BY 1' },
  { sql: 'SELECT count(*) FROM (SELECT id, count(*) FROM items GROUP BY id) t' },
  {
    sql: 'SELECT k, count(*) FROM (SELECT CASE WHEN id > 3000 THEN CAST(id AS bigint) * 1000000 ELSE id % 7 END AS k FROM items) t GROUP BY k ORDER BY 2 DESC, 1 LIMIT 5',
  },
  { sql: 'SELECT d, count(*) FROM items GROUP BY d ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 5' },
  // int64 keys beyond 2^53 (int32 halves, alone and beside text and numbers), with NULLs; a join on them
  { sql: 'SELECT big, count(*) FROM items GROUP BY big ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 8' },
  { sql: 'SELECT count(*), count(DISTINCT big), min(big), max(big) FROM (SELECT big FROM items GROUP BY big) t' },
  { sql: 'SELECT big % 3 AS m, cat, count(*) FROM items GROUP BY 1, 2 ORDER BY 1 NULLS FIRST, 2 NULLS FIRST' },
  {
    sql: 'SELECT big, name, grp, count(*) FROM items GROUP BY big, name, grp ORDER BY 4 DESC, 1 NULLS FIRST, 2 NULLS FIRST, 3 NULLS FIRST LIMIT 10',
  },
  { sql: 'SELECT count(*) FROM (SELECT big, cat FROM items GROUP BY big, cat) t' },
  { sql: 'SELECT count(*), sum(a.qty) FROM items a JOIN items b ON a.big = b.big AND a.cat = b.cat' },
  { sql: 'SELECT grp, count(*) FROM items GROUP BY grp ORDER BY 1 NULLS FIRST' },
  // Output columns copied late: text through two joins, NULL padding gathered again, read by a filter above
  {
    sql: 'SELECT a.id, b.name, c.cat FROM items a LEFT JOIN items b ON b.id = a.grp LEFT JOIN items c ON c.id = b.grp + 1 WHERE a.id < 400 ORDER BY a.id',
  },
  {
    sql: 'SELECT count(*), count(b.name), count(c.cat) FROM items a LEFT JOIN items b ON b.id = a.grp * 2 FULL JOIN items c ON c.id = b.qty + 4990',
  },
  {
    sql: "SELECT a.id, c.name FROM items a JOIN items b ON b.id = a.id + 1 JOIN items c ON c.id = b.grp + 1 WHERE c.name LIKE 'a%' AND a.id < 2000 ORDER BY a.id",
  },
  {
    sql: "SELECT i.cat, count(*) FROM items i JOIN lineitem l ON i.id = l.l_orderkey WHERE i.name NOT LIKE '%e%' GROUP BY i.cat ORDER BY 1 NULLS FIRST",
  },
  {
    sql: 'SELECT s.k, x.name FROM specials s LEFT JOIN (SELECT id, name FROM items WHERE qty > 45) x ON x.id = s.k ORDER BY s.k',
  },
];

differentialSuite('hash tables', cases);
