// Differential: GROUP BY columns that depend on a key column (`items.id`, `specials.k` are keys of their tables)
// or on columns an inner join or filter makes equal to one; the accelerated engine groups by the key alone and
// takes the rest with any_value (prune-group-keys), the file engine hashes every column; both vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  { sql: 'SELECT id, name, cat, price, d, flag, count(*), sum(qty) FROM items GROUP BY id, name, cat, price, d, flag' },
  { sql: 'SELECT name, id, count(*) FROM items GROUP BY name, id ORDER BY id LIMIT 20' },
  { sql: 'SELECT DISTINCT id, name, nothing FROM items' },
  { sql: "SELECT id, name FROM items GROUP BY id, name HAVING name LIKE 'a%' ORDER BY name, id" },
  { sql: 'SELECT k, s, i32, m, count(*) FROM specials GROUP BY k, s, i32, m' },
  // Through an inner join: j.grp = i.id makes i's columns depend on j.grp.
  {
    sql: 'SELECT j.grp, i.name, i.cat, count(*), sum(j.qty) FROM items i JOIN items j ON j.grp = i.id GROUP BY 1, 2, 3',
  },
  { sql: 'SELECT i.id, i.name, count(*) FROM items i, items j WHERE j.grp = i.id GROUP BY i.id, i.name' },
  // Outer join: the null-supplying side's columns stay in the key (its ON equality does not hold on padded rows).
  { sql: 'SELECT i.id, j.name, count(*) FROM items i LEFT JOIN items j ON j.id = i.grp GROUP BY i.id, j.name' },
  { sql: 'SELECT i.grp, j.name, count(*) FROM items i LEFT JOIN items j ON j.id = i.grp GROUP BY i.grp, j.name' },
  // Keys that are not plain key columns keep everything.
  { sql: 'SELECT id + 0, name, count(*) FROM items GROUP BY id + 0, name' },
  { sql: 'SELECT grp, name, count(*) FROM items GROUP BY grp, name' },
  { sql: 'SELECT id, length(name), count(*) FROM items GROUP BY id, length(name)' },
  // any_value as written: the first non-NULL value; one per group here, so the answer is fixed.
  // PostgreSQL 15 has no any_value (16 does): min is the same answer with one value per group.
  {
    sql: 'SELECT id, any_value(name), any_value(nothing) FROM items GROUP BY id',
    postgres: 'SELECT id, min(name), min(nothing) FROM items GROUP BY id',
  },
  { sql: 'SELECT any_value(nothing), count(*) FROM items', postgres: 'SELECT min(nothing), count(*) FROM items' },
  {
    sql: 'SELECT grp, any_value(id) FILTER (WHERE false) FROM items GROUP BY grp',
    postgres: 'SELECT grp, min(id) FILTER (WHERE false) FROM items GROUP BY grp',
  },
  // Keys computed from other keys (remove-dependent-group-keys): computed per group above the aggregate; NULL keys,
  // text functions, a float key left alone (0 and -0 group together), constants beside a column.
  { sql: 'SELECT grp, grp * 2, cat, upper(cat), count(*), sum(qty) FROM items GROUP BY grp, grp * 2, cat, upper(cat)' },
  {
    sql: 'SELECT d, EXTRACT(YEAR FROM d), count(*) FROM items GROUP BY d, EXTRACT(YEAR FROM d) ORDER BY 3 DESC, 1 LIMIT 7',
  },
  { sql: 'SELECT f, f * 2, count(*) FROM specials GROUP BY f, f * 2' },
  { sql: "SELECT 1, 'x', s, length(s), count(*) FROM specials GROUP BY 1, 2, s, length(s)" },
];

differentialSuite('group-keys', cases);
