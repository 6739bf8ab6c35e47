// Differential: aggregates, GROUP BY, HAVING and DISTINCT vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

// AVG: floe and DuckDB return double precision (compared within tolerance); PostgreSQL returns numeric.
const cases: DiffCase[] = [
  { sql: 'SELECT count(*), count(grp), count(DISTINCT grp), sum(qty), avg(qty), min(qty), max(qty) FROM items' },
  { sql: 'SELECT sum(big), min(big), max(big), avg(big), count(DISTINCT big) FROM items' },
  { sql: 'SELECT sum(f), avg(f), min(f), max(f) FROM items' },
  { sql: 'SELECT sum(price), avg(price), min(price), max(price) FROM items' },
  { sql: 'SELECT sum(rate), min(rate), max(rate), avg(rate) FROM items' },
  { sql: 'SELECT min(name), max(name), min(d), max(d), min(ts), max(ts), min(cat), max(cat) FROM items' },
  { sql: 'SELECT grp, count(*), sum(qty), avg(price), max(big) FROM items GROUP BY grp' },
  { sql: 'SELECT cat, flag, count(*), sum(price), min(d) FROM items GROUP BY cat, flag' },
  { sql: 'SELECT name, count(*), count(DISTINCT grp), sum(rate) FROM items GROUP BY name' },
  { sql: 'SELECT EXTRACT(YEAR FROM d) AS y, count(*), sum(price) FROM items GROUP BY 1' },
  { sql: 'SELECT grp % 3, sum(big), count(big) FROM items GROUP BY grp % 3' },
  { sql: 'SELECT d, count(*) FROM items GROUP BY d HAVING count(*) > 4' },
  { sql: 'SELECT grp, max(f) - min(f), sum(f) FROM items GROUP BY grp' },
  { sql: 'SELECT cat, count(*) FROM items GROUP BY cat HAVING sum(qty) > 30000' },
  { sql: 'SELECT count(*), sum(qty), max(price), avg(f) FROM items WHERE qty > 100' },
  { sql: 'SELECT grp, sum(nothing), count(nothing), max(nothing) FROM items GROUP BY grp' },
  { sql: 'SELECT DISTINCT cat, grp FROM items' },
  { sql: 'SELECT count(DISTINCT name), count(DISTINCT d), count(DISTINCT price), count(DISTINCT flag) FROM items' },
  { sql: 'SELECT i64, count(*) FROM specials GROUP BY i64' },
  // DISTINCT per group through the partitioned int64 pairs (values past 2^53, a decimal over a wide range, NULLs)
  // and the text pairs (bytes, codes, JS strings from an expression; '' and non-ASCII).
  {
    sql: 'SELECT grp, count(DISTINCT big), sum(DISTINCT big), count(DISTINCT price), sum(DISTINCT price) FROM items GROUP BY grp',
  },
  {
    sql: 'SELECT cat, count(DISTINCT name), min(DISTINCT name), max(DISTINCT name), count(DISTINCT upper(name)) FROM items GROUP BY cat',
  },
  {
    sql: 'SELECT count(DISTINCT s), count(DISTINCT upper(s)), min(DISTINCT s), count(DISTINCT i64), sum(DISTINCT m) FROM specials',
  },
  {
    sql: 'SELECT flag, count(DISTINCT big), count(DISTINCT cat), avg(DISTINCT qty), count(*) FROM items WHERE grp > 2 GROUP BY flag',
  },
  { sql: 'SELECT count(DISTINCT i64), min(i64), max(i64) FROM specials' },
  { sql: 'SELECT g, count(*) FROM specials GROUP BY g' },
  { sql: 'SELECT min(g), max(g), count(DISTINCT g), sum(g) FROM specials' },
  { sql: 'SELECT l_returnflag, count(*), sum(l_quantity), sum(l_extendedprice) FROM lineitem GROUP BY l_returnflag' },
  {
    sql: 'SELECT l_shipmode, avg(l_discount), max(l_extendedprice), min(l_shipdate) FROM lineitem GROUP BY l_shipmode',
  },
  { sql: 'SELECT flag, sum(price * rate), sum(price * 2) FROM items GROUP BY flag' },
  {
    sql: "SELECT count(*) FILTER (WHERE qty > 25), sum(qty) FILTER (WHERE flag), max(price) FILTER (WHERE cat = 'beta') FROM items",
  },
  { sql: "SELECT grp, count(*) FROM items WHERE d >= DATE '1995-01-01' GROUP BY grp HAVING count(*) > 200" },
  { sql: 'SELECT grp, flag, count(*) FROM items WHERE id > 2500 GROUP BY 1, 2 HAVING min(qty) < 3' },
  {
    sql: 'SELECT upper(cat), count(*) * 2, sum(qty) / count(*) FROM items GROUP BY upper(cat)',
    duckdb: 'SELECT upper(cat), count(*) * 2, sum(qty) // count(*) FROM items GROUP BY upper(cat)',
  },
  { sql: 'SELECT l_orderkey, count(*), sum(l_quantity) FROM lineitem GROUP BY l_orderkey HAVING count(*) >= 7' },
  // Text keys: short values (coded group keys) with NULLs, '' and non-ASCII, longer values mixed in, few and many.
  { sql: 'SELECT s, count(*), sum(k) FROM specials GROUP BY s' },
  { sql: 'SELECT s, upper(s), count(*), min(k) FROM specials GROUP BY s, upper(s)' },
  { sql: 'SELECT substring(cat, 1, 1), substring(name, 1, 2), count(*), sum(qty) FROM items GROUP BY 1, 2' },
  { sql: 'SELECT substring(CAST(id AS text), 1, 2), substring(cat, 2, 1), count(*) FROM items GROUP BY 1, 2' },
  {
    sql: 'SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity), avg(l_discount) FROM lineitem GROUP BY 1, 2',
  },
  { sql: 'SELECT name, cat, count(*), max(qty) FROM items GROUP BY name, cat' },
  // Offset sums of one int32 column share one SUM/COUNT pair (rewrite-sum-offsets): NULL groups, FILTER, near int32's ends.
  {
    sql: 'SELECT grp, sum(qty + 1), sum(qty - 2), sum(3 - qty), sum(qty) FILTER (WHERE flag), sum(qty + 7) FILTER (WHERE flag), sum(7 + qty) FILTER (WHERE flag) FROM items GROUP BY grp',
  },
  {
    sql: 'SELECT g, sum(k + 1), sum(k - 1), sum(i32 - 1), sum(i32 - 2), sum(1 - i32), sum(i32) FROM specials WHERE k <> 2 GROUP BY g',
  },
  // MIN/MAX of text compared as UTF-8 bytes (code point order: astral characters above U+FFFF-ish BMP ones), with
  // NULLs, '' and groups where every value is NULL; over a filter's selection and over gathered rows.
  { sql: 'SELECT grp, min(name), max(name), min(cat), max(cat) FROM items GROUP BY grp' },
  { sql: "SELECT grp, min(name), max(name), count(*) FROM items WHERE qty > 3 AND cat <> 'beta' GROUP BY grp" },
  { sql: 'SELECT g, min(s), max(s), min(s) FILTER (WHERE k > 3) FROM specials GROUP BY g' },
  { sql: "SELECT min(s), max(s), max(upper(s)) FROM specials WHERE s <> 'a'" },
  // A subexpression shared by several arguments (and a FILTER) is evaluated once per batch.
  {
    sql: 'SELECT l_returnflag, sum(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)), avg(l_extendedprice * (1 - l_discount)), sum(l_extendedprice * (1 - l_discount)) FILTER (WHERE l_quantity > 10) FROM lineitem GROUP BY l_returnflag',
  },
  // An aggregate right above a filter reads the filter's selection (most rows kept) or copies (few kept): NULL keys,
  // groups only dropped rows have, no survivor at all, int64 sums past 2^53, arguments that would raise on dropped
  // rows (never fused), a rest predicate that may raise, grouping sets, FILTER and DISTINCT beside it.
  {
    sql: "SELECT grp, count(*), count(f), sum(qty), avg(price), min(name), max(d), sum(big) FROM items WHERE qty > 3 AND cat <> 'beta' GROUP BY grp",
  },
  { sql: "SELECT cat, count(*), sum(price), avg(rate) FROM items WHERE cat <> 'beta' GROUP BY cat" },
  { sql: 'SELECT grp, flag, count(*), sum(qty) FROM items WHERE qty < 48 GROUP BY grp, flag' },
  { sql: 'SELECT count(*), sum(qty), avg(price), min(d), max(big) FROM items WHERE qty > 1000' },
  { sql: 'SELECT grp, count(*), sum(qty) FROM items WHERE qty > 1000 GROUP BY grp' },
  { sql: 'SELECT sum(big), count(big), avg(big) FROM items WHERE id > 10' },
  {
    sql: 'SELECT grp, sum(1000 / (qty - 25)) FROM items WHERE qty <> 25 GROUP BY grp',
    duckdb: 'SELECT grp, sum(1000 // (qty - 25)) FROM items WHERE qty <> 25 GROUP BY grp',
  },
  {
    sql: 'SELECT count(*), sum(qty) FROM items WHERE qty <> 25 AND 1000 / (qty - 25) > 3',
    duckdb: 'SELECT count(*), sum(qty) FROM items WHERE qty <> 25 AND 1000 // (qty - 25) > 3',
  },
  { sql: 'SELECT cat, flag, count(*), sum(qty) FROM items WHERE qty > 5 GROUP BY GROUPING SETS ((cat), (flag), ())' },
  { sql: 'SELECT grp, count(DISTINCT cat), sum(qty) FILTER (WHERE flag) FROM items WHERE qty > 5 GROUP BY grp' },
  { sql: 'SELECT s, count(*), sum(k) FROM specials WHERE k > 0 GROUP BY s' },
  {
    sql: "SELECT l_returnflag, l_linestatus, sum(l_extendedprice * (1 - l_discount)), avg(l_quantity), count(*) FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY 1, 2",
  },
  {
    sql: "SELECT sum(l_extendedprice * l_discount), count(*) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_quantity < 24",
  },
  // SUM and AVG of one argument share one state (NULLs, int64 sums past 2^53, doubles, decimals); FILTER and DISTINCT
  // calls of the same argument keep their own; with and without a filter's selection underneath.
  {
    sql: 'SELECT grp, sum(qty), avg(qty), avg(big), sum(big), sum(f), avg(f), avg(price), sum(price), sum(qty) FILTER (WHERE flag), avg(DISTINCT qty), sum(grp), avg(grp) FROM items GROUP BY grp',
  },
  { sql: 'SELECT avg(big), sum(big), sum(nothing), avg(nothing), avg(rate), sum(rate) FROM items WHERE qty > 3' },
  // Short text keys read through the selection: NULL keys, keys only dropped rows have, longer values beside them.
  {
    sql: 'SELECT substr(cat, 1, 2), flag, count(*), sum(qty) FROM items WHERE qty > 10 AND qty < 45 GROUP BY substr(cat, 1, 2), flag',
  },
  {
    sql: "SELECT CASE WHEN qty > 47 THEN 'over forty-seven' ELSE substr(name, 1, 1) END AS k, count(*), avg(price) FROM items WHERE qty > 2 GROUP BY 1",
  },
  // The same call over columns of different tables is two aggregates (they were once merged by their display name).
  {
    sql: 'SELECT count(b.name), count(c.name), sum(b.qty), sum(c.qty), max(b.qty) FROM items a LEFT JOIN items b ON b.id = a.grp * 2 FULL JOIN items c ON c.id = b.qty + 4990',
  },
  {
    sql: 'SELECT a.grp, count(a.name), count(b.name) FROM items a LEFT JOIN items b ON b.id = a.id + 3 GROUP BY a.grp HAVING count(b.name) > 1 ORDER BY count(a.name), a.grp',
  },
];

differentialSuite('aggregate', cases);
