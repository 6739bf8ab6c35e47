// Differential: WITH RECURSIVE (UNION and UNION ALL) over the generated tables vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

// DuckDB's `/` on integers divides exactly; `//` is PostgreSQL's integer division.
const cases: DiffCase[] = [
  {
    sql: 'WITH RECURSIVE sub(id, depth) AS (SELECT id, 0 FROM items WHERE id = 3 UNION ALL SELECT i.id, s.depth + 1 FROM sub s JOIN items i ON i.id / 2 = s.id) SELECT depth, count(*), sum(id) FROM sub GROUP BY depth ORDER BY depth',
    duckdb:
      'WITH RECURSIVE sub(id, depth) AS (SELECT id, 0 FROM items WHERE id = 3 UNION ALL SELECT i.id, s.depth + 1 FROM sub s JOIN items i ON i.id // 2 = s.id) SELECT depth, count(*), sum(id) FROM sub GROUP BY depth ORDER BY depth',
  },
  {
    sql: 'WITH RECURSIVE r(g) AS (SELECT 0 UNION SELECT (i.qty + r.g) % 10 FROM r JOIN items i ON i.grp = r.g WHERE i.id < 40) SELECT g FROM r ORDER BY g',
  },
  {
    sql: 'WITH RECURSIVE r(g, cat) AS (SELECT grp, cat FROM items WHERE id < 4 UNION SELECT i.grp, i.cat FROM r JOIN items i ON i.grp = r.g + 1 AND i.id < 300) SELECT g, cat FROM r ORDER BY g, cat',
    duckdb:
      'WITH RECURSIVE r(g, cat) AS (SELECT grp, cat FROM items WHERE id < 4 UNION SELECT i.grp, i.cat FROM r JOIN items i ON i.grp = r.g + 1 AND i.id < 300) SELECT g, cat FROM r ORDER BY g NULLS LAST, cat NULLS LAST',
  },
  {
    sql: "WITH RECURSIVE c(k, s) AS (SELECT 1, name FROM items WHERE id = 1 UNION ALL SELECT k + 1, s || '-' || i.name FROM c JOIN items i ON i.id = c.k + 1 WHERE k < 6) SELECT k, s FROM c ORDER BY k",
  },
  {
    sql: 'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 1000) SELECT count(*), sum(i.qty), sum(i.big) FROM t JOIN items i ON i.id = t.n',
  },
  {
    sql: 'WITH RECURSIVE t(n, total) AS (SELECT 1, 0::bigint UNION ALL SELECT n + 1, total + (SELECT qty FROM items WHERE id = n) FROM t WHERE n <= 50) SELECT n, total FROM t ORDER BY n DESC LIMIT 3',
  },
  {
    sql: 'WITH RECURSIVE o(k, d) AS (SELECT min(l_orderkey), 0 FROM lineitem UNION SELECT l.l_orderkey, o.d + 1 FROM o JOIN lineitem l ON l.l_orderkey = o.k + 1 WHERE o.d < 30) SELECT count(*), max(d), sum(k) FROM o',
  },
];

differentialSuite('recursive', cases);
