// Differential: ORDER BY, NULL placement, LIMIT/OFFSET vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

// PostgreSQL puts NULLs last for ASC and first for DESC; DuckDB puts them last for both, so DuckDB's DESC
// queries spell NULLS FIRST.
const cases: DiffCase[] = [
  { sql: 'SELECT id, qty FROM items ORDER BY qty DESC, id LIMIT 10' },
  { sql: 'SELECT k, i32 FROM specials ORDER BY i32, k' },
  {
    sql: 'SELECT k, s FROM specials ORDER BY s DESC, k',
    duckdb: 'SELECT k, s FROM specials ORDER BY s DESC NULLS FIRST, k',
  },
  { sql: 'SELECT id, f FROM items ORDER BY f DESC NULLS LAST, id LIMIT 5' },
  { sql: 'SELECT id, price FROM items ORDER BY price NULLS FIRST, id LIMIT 5' },
  { sql: 'SELECT id, name FROM items WHERE id < 200 ORDER BY name, id' },
  {
    sql: 'SELECT id FROM items ORDER BY d DESC, id LIMIT 5 OFFSET 10',
    duckdb: 'SELECT id FROM items ORDER BY d DESC NULLS FIRST, id LIMIT 5 OFFSET 10',
  },
  { sql: 'SELECT grp, count(*) AS n FROM items GROUP BY grp ORDER BY n DESC, grp' },
  { sql: 'SELECT id, ts FROM items ORDER BY ts LIMIT 5' },
  { sql: 'SELECT k, i64 FROM specials ORDER BY i64 DESC NULLS LAST, k' },
  { sql: 'SELECT id FROM items ORDER BY qty * -1, id LIMIT 5' },
  { sql: 'SELECT DISTINCT cat FROM items ORDER BY cat' },
  { sql: 'SELECT k, g FROM specials ORDER BY g, k' },
  {
    sql: 'SELECT l_orderkey, l_linenumber FROM lineitem ORDER BY l_extendedprice DESC, l_orderkey, l_linenumber LIMIT 10',
  },
  { sql: 'SELECT id, big FROM items WHERE big IS NOT NULL ORDER BY big LIMIT 5 OFFSET 3' },
  { sql: 'SELECT id, rate FROM items ORDER BY rate DESC NULLS LAST, id DESC LIMIT 7' },
  { sql: 'SELECT id FROM items WHERE flag ORDER BY id DESC LIMIT 3 OFFSET 100' },
  // TopKs whose first key bounds the row groups the scan reads (a dynamic filter): ascending, descending, text.
  { sql: 'SELECT id, name FROM items WHERE qty > 20 ORDER BY id LIMIT 4 OFFSET 3' },
  { sql: 'SELECT id, qty FROM items WHERE qty > 20 ORDER BY id DESC LIMIT 4' },
  { sql: 'SELECT id, name FROM items ORDER BY name, id LIMIT 6' },
  {
    sql: 'SELECT id, ts FROM items ORDER BY ts DESC, id LIMIT 6',
    duckdb: 'SELECT id, ts FROM items ORDER BY ts DESC NULLS FIRST, id LIMIT 6',
  },
];

differentialSuite('sort', cases);
