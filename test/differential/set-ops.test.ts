// Differential: UNION / INTERSECT / EXCEPT (with and without ALL) and VALUES queries vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

// DuckDB sorts NULLs last in both directions; PostgreSQL (and floe) puts them first for DESC, so DESC cases over
// nullable columns spell NULLS FIRST for DuckDB.
const cases: DiffCase[] = [
  { sql: 'SELECT grp FROM items UNION SELECT grp FROM items' },
  { sql: 'SELECT grp FROM items UNION ALL SELECT grp FROM items WHERE id <= 100' },
  { sql: 'SELECT cat, flag FROM items UNION SELECT cat, flag FROM items WHERE id < 50' },
  { sql: 'SELECT name FROM items WHERE id <= 300 UNION SELECT name FROM items WHERE id > 4700' },
  { sql: 'SELECT grp, cat FROM items WHERE id <= 500 INTERSECT SELECT grp, cat FROM items WHERE id > 4500' },
  { sql: 'SELECT grp, cat FROM items WHERE id <= 500 INTERSECT ALL SELECT grp, cat FROM items WHERE id > 4500' },
  { sql: 'SELECT grp, cat FROM items WHERE id <= 500 EXCEPT SELECT grp, cat FROM items WHERE id > 4500' },
  { sql: 'SELECT grp, cat FROM items WHERE id <= 500 EXCEPT ALL SELECT grp, cat FROM items WHERE id > 4500' },
  { sql: 'SELECT qty FROM items EXCEPT SELECT qty FROM items WHERE id > 100' },
  { sql: 'SELECT qty, flag FROM items WHERE id <= 1000 EXCEPT ALL SELECT qty, flag FROM items WHERE id > 1000' },
  { sql: 'SELECT d FROM items WHERE id <= 2000 INTERSECT SELECT d FROM items WHERE id > 1900' },
  { sql: 'SELECT price FROM items WHERE id < 40 UNION ALL SELECT rate FROM items WHERE id < 40' },
  { sql: 'SELECT big FROM items WHERE id < 300 INTERSECT ALL SELECT big FROM items WHERE id < 200' },
  { sql: 'SELECT f FROM items WHERE id < 30 UNION SELECT qty FROM items WHERE id < 30' },
  { sql: 'SELECT ts FROM items WHERE id < 20 UNION ALL SELECT d FROM items WHERE id < 20' },
  { sql: 'SELECT i32 FROM specials UNION SELECT i64 FROM specials' },
  { sql: 'SELECT g FROM specials UNION SELECT g FROM specials' },
  { sql: 'SELECT g FROM specials INTERSECT SELECT g FROM specials WHERE k > 3' },
  { sql: 'SELECT s FROM specials EXCEPT ALL SELECT s FROM specials WHERE k > 8' },
  { sql: 'SELECT l_returnflag, l_linestatus FROM lineitem INTERSECT SELECT l_returnflag, l_linestatus FROM lineitem' },
  { sql: 'SELECT l_orderkey FROM lineitem EXCEPT SELECT l_orderkey FROM lineitem WHERE l_quantity > 1000' },
  { sql: 'SELECT 1 UNION SELECT 2 INTERSECT SELECT 3' },
  { sql: 'SELECT grp FROM items UNION SELECT qty FROM items EXCEPT SELECT qty FROM items WHERE qty > 5' },
  { sql: '(SELECT grp FROM items UNION SELECT qty FROM items) EXCEPT (SELECT qty FROM items WHERE qty > 5)' },
  {
    sql: 'SELECT grp FROM items WHERE id < 100 INTERSECT SELECT grp FROM items WHERE id > 4000 UNION ALL SELECT qty FROM items WHERE id < 5',
  },
  { sql: '((SELECT cat FROM items) EXCEPT ALL (SELECT cat FROM items WHERE id > 20)) UNION ALL (SELECT NULL)' },
  {
    sql: 'SELECT grp AS g FROM items UNION SELECT qty FROM items ORDER BY g DESC LIMIT 7',
    duckdb: 'SELECT grp AS g FROM items UNION SELECT qty FROM items ORDER BY g DESC NULLS FIRST LIMIT 7',
  },
  { sql: 'SELECT id FROM items UNION ALL SELECT k FROM specials ORDER BY 1 LIMIT 5 OFFSET 8' },
  { sql: 'SELECT name, grp FROM items INTERSECT SELECT name, grp FROM items ORDER BY name, grp NULLS FIRST' },
  {
    sql: '(SELECT id FROM items ORDER BY qty DESC, id LIMIT 3) UNION ALL (SELECT id FROM items ORDER BY id LIMIT 2) ORDER BY id',
  },
  { sql: 'SELECT 1 UNION SELECT 2.5 UNION SELECT NULL' },
  { sql: "SELECT 'x' UNION ALL SELECT name FROM items WHERE id < 4" },
  { sql: "VALUES (1, 'one'), (2, 'two'), (NULL, 'three')" },
  { sql: 'VALUES (1), (2.5), (NULL) ORDER BY 1' },
  { sql: "VALUES (3, 'c'), (1, 'a'), (2, 'b') ORDER BY 2 DESC LIMIT 2" },
  { sql: "VALUES (DATE '2024-02-29'), (TIMESTAMP '2024-03-01 10:00:00')" },
  { sql: 'VALUES (1), (1), (2), (NULL), (NULL) INTERSECT ALL VALUES (1), (NULL), (NULL), (3)' },
  { sql: 'VALUES (1), (1), (2), (NULL), (NULL) EXCEPT ALL VALUES (1), (NULL), (3)' },
  { sql: 'SELECT qty FROM items WHERE id < 10 UNION VALUES (100), (1)' },
];

differentialSuite('set-ops', cases);
