// Differential: scalar expressions (arithmetic, decimals, casts, CASE, strings, dates) vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  // PostgreSQL's integer `/` truncates; DuckDB's `/` returns a double, its `//` truncates like PostgreSQL.
  {
    sql: 'SELECT id, qty / 7, qty % 7, -qty / 7 FROM items WHERE id <= 20',
    duckdb: 'SELECT id, qty // 7, qty % 7, -qty // 7 FROM items WHERE id <= 20',
  },
  {
    sql: 'SELECT id, big / 1000, big % 1000 FROM items WHERE id <= 50',
    duckdb: 'SELECT id, big // 1000, big % 1000 FROM items WHERE id <= 50',
  },
  {
    sql: 'SELECT k, i64 / 3, i64 % 7 FROM specials WHERE k > 2',
    duckdb: 'SELECT k, i64 // 3, i64 % 7 FROM specials WHERE k > 2',
  },
  { sql: 'SELECT id, qty * 1000000 + id, id - qty * 2 FROM items WHERE id <= 40' },
  { sql: 'SELECT id, price * 2, price + rate, price - 1, price * rate FROM items WHERE id <= 30' },
  { sql: 'SELECT id, -price, price * -1, rate * rate FROM items WHERE id <= 30' },
  {
    sql: 'SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) * (1 + l_tax) FROM lineitem WHERE l_orderkey < 20',
  },
  { sql: 'SELECT 0.06 + 0.01, 0.1 + 0.2, 1.25 * 1.5, 1.10 - 0.2' },
  { sql: 'SELECT id, f * 2 + 1, f / 3, f - f FROM items WHERE id <= 30' },
  // Decimal division: floe (like DuckDB) returns double precision; PostgreSQL returns numeric.
  { sql: 'SELECT id, price / 7, rate / 3 FROM items WHERE id <= 30' },
  {
    sql: 'SELECT id, CAST(price AS double precision), CAST(qty AS decimal(10,2)), CAST(rate AS decimal(10,1)) FROM items WHERE id <= 30',
  },
  { sql: 'SELECT id, CAST(f AS bigint), CAST(price AS integer) FROM items WHERE id <= 30 AND abs(f) < 1000000' },
  { sql: "SELECT id, CAST(id AS text) || '-' || name FROM items WHERE id <= 30" },
  {
    sql: 'SELECT id, CAST(price AS text), CAST(d AS text), CAST(flag AS text), CAST(ts AS text) FROM items WHERE id <= 20',
  },
  {
    sql: "SELECT CAST('42' AS integer), CAST('12.345' AS decimal(10,2)), CAST('2024-02-29' AS date), CAST('true' AS boolean)",
  },
  { sql: "SELECT id, upper(name), lower(name), length(name) FROM items WHERE id <= 60 AND name NOT LIKE '%ß%'" },
  { sql: 'SELECT id, substring(name, 2, 3), substring(name FROM 1 FOR 1), substr(name, 3) FROM items WHERE id <= 60' },
  { sql: "SELECT id, trim(name), ltrim(name), rtrim(name), '[' || trim(name) || ']' FROM items WHERE id <= 60" },
  { sql: "SELECT id, replace(name, 'a', 'o'), position('a' IN name), strpos(name, 'p') FROM items WHERE id <= 60" },
  { sql: "SELECT id, concat(name, '|', cat), name || cat, concat(qty, price) FROM items WHERE id <= 40" },
  {
    sql: "SELECT CASE WHEN qty < 10 THEN 'small' WHEN qty < 30 THEN 'medium' ELSE 'large' END AS size, count(*) FROM items GROUP BY 1",
  },
  {
    sql: "SELECT id, CASE grp WHEN 1 THEN 'one' WHEN 2 THEN 'two' END, CASE WHEN flag THEN price ELSE 0 END FROM items WHERE id <= 40",
  },
  // One WHEN over numbers whose arms cannot raise: both arms over every row, picked per row (NULL conditions pick
  // ELSE); int64 beyond 2^53 and raising arms take the arm-by-arm path.
  {
    sql: 'SELECT grp, sum(CASE WHEN flag THEN price * rate ELSE 0 END), sum(price * rate), sum(CASE WHEN qty > 25 THEN rate ELSE price END) FROM items GROUP BY grp',
  },
  {
    sql: "SELECT id, CASE WHEN qty > 25 THEN grp ELSE qty END, CASE WHEN name LIKE 'a%' THEN d ELSE d + 1 END, CASE WHEN flag THEN f ELSE -f END, CASE WHEN flag THEN big ELSE 0 END FROM items WHERE id <= 80",
  },
  {
    sql: 'SELECT id, CASE WHEN grp <> 0 THEN 100 / grp ELSE -1 END FROM items WHERE id <= 80',
    duckdb: 'SELECT id, CASE WHEN grp <> 0 THEN 100 // grp ELSE -1 END FROM items WHERE id <= 80',
  },
  { sql: "SELECT id, COALESCE(grp, -1), NULLIF(qty, 25), COALESCE(name, cat, '?') FROM items WHERE id <= 60" },
  // EXTRACT: floe returns numeric as PostgreSQL 14+ does, DuckDB bigint; the values print alike.
  {
    sql: 'SELECT id, EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM d), EXTRACT(DAY FROM d), EXTRACT(DOW FROM d), EXTRACT(DOY FROM d), EXTRACT(QUARTER FROM d) FROM items WHERE id <= 60',
  },
  { sql: 'SELECT id, EXTRACT(HOUR FROM ts), EXTRACT(MINUTE FROM ts) FROM items WHERE id <= 60' },
  { sql: "SELECT id, date_part('epoch', ts) FROM items WHERE id <= 30" },
  {
    sql: "SELECT id, date_trunc('month', ts), date_trunc('year', ts), date_trunc('day', ts), date_trunc('hour', ts) FROM items WHERE id <= 40",
  },
  { sql: "SELECT id, d + 30, d - 7, d - DATE '1992-01-01' FROM items WHERE id <= 40" },
  { sql: "SELECT id, d + INTERVAL '1' MONTH, ts - INTERVAL '2' HOUR, d - INTERVAL '90' DAY FROM items WHERE id <= 40" },
  { sql: 'SELECT id, CAST(ts AS date), CAST(d AS timestamp) FROM items WHERE id <= 40' },
  { sql: 'SELECT id, abs(qty - 25), abs(price), abs(f) FROM items WHERE id <= 40' },
  { sql: 'SELECT k, i32 + 0, -i64 FROM specials WHERE k > 2' },
];

differentialSuite('expressions', cases);
