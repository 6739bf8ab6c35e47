// Differential: window functions (ranking, lag/lead, frame values, aggregates over ROWS/RANGE/GROUPS frames),
// named windows, windows over GROUP BY, and DISTINCT ON vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

// DuckDB puts NULLs last for DESC too; floe (like PostgreSQL) puts them first, so DuckDB's spelling of a DESC
// key over a nullable column says NULLS FIRST. Window ORDER BYs that decide row_number, lag/lead or ROWS
// frames end in a unique key (id, k, l_linenumber) so that both engines see one order.
const cases: DiffCase[] = [
  // Ranking
  { sql: 'SELECT id, grp, row_number() OVER (PARTITION BY grp ORDER BY id) FROM items ORDER BY id' },
  {
    sql: 'SELECT id, rank() OVER (PARTITION BY grp ORDER BY qty), dense_rank() OVER (PARTITION BY grp ORDER BY qty) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, d, rank() OVER (ORDER BY d DESC), dense_rank() OVER (ORDER BY d DESC) FROM items ORDER BY id',
    duckdb:
      'SELECT id, d, rank() OVER (ORDER BY d DESC NULLS FIRST), dense_rank() OVER (ORDER BY d DESC NULLS FIRST) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, percent_rank() OVER (PARTITION BY cat ORDER BY price), cume_dist() OVER (PARTITION BY cat ORDER BY price) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, ntile(4) OVER (PARTITION BY grp ORDER BY id), ntile(7) OVER (ORDER BY id) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT k, ntile(3) OVER (ORDER BY k), ntile(20) OVER (ORDER BY k), ntile(1) OVER (ORDER BY k) FROM specials ORDER BY k',
  },
  {
    sql: 'SELECT id, rank() OVER (ORDER BY grp NULLS FIRST, qty DESC), percent_rank() OVER (ORDER BY grp NULLS FIRST, qty DESC) FROM items ORDER BY id',
  },
  { sql: 'SELECT k, g, rank() OVER (ORDER BY g), cume_dist() OVER (ORDER BY g) FROM specials ORDER BY k' },
  // lag / lead
  {
    sql: "SELECT id, lag(qty) OVER (PARTITION BY grp ORDER BY id), lead(qty, 2) OVER (PARTITION BY grp ORDER BY id), lag(name, 1, 'none') OVER (PARTITION BY grp ORDER BY id) FROM items ORDER BY id",
  },
  {
    sql: 'SELECT id, lead(price, 3, 0) OVER (ORDER BY id), lag(d, 7) OVER (ORDER BY id), lead(ts) OVER (ORDER BY id) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT k, lag(i64) OVER (ORDER BY k), lead(s, 1, s) OVER (ORDER BY k), lag(f, 0) OVER (ORDER BY k) FROM specials ORDER BY k',
  },
  {
    sql: 'SELECT id, qty - lag(qty) OVER (ORDER BY id), lead(flag, 100) OVER (PARTITION BY cat ORDER BY id) FROM items ORDER BY id',
  },
  // first_value / last_value / nth_value
  {
    sql: 'SELECT id, first_value(name) OVER (PARTITION BY grp ORDER BY id), last_value(name) OVER (PARTITION BY grp ORDER BY id) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, last_value(qty) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, nth_value(qty, 3) OVER (PARTITION BY cat ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, nth_value(name, 2) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, first_value(d) OVER (PARTITION BY grp ORDER BY d DESC, id), last_value(id) OVER (PARTITION BY grp ORDER BY d DESC, id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM items ORDER BY id',
    duckdb:
      'SELECT id, first_value(d) OVER (PARTITION BY grp ORDER BY d DESC NULLS FIRST, id), last_value(id) OVER (PARTITION BY grp ORDER BY d DESC NULLS FIRST, id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, first_value(id) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 5 FOLLOWING), last_value(id) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 3 PRECEDING) FROM items ORDER BY id',
  },
  // Aggregates: whole partition, running, peers
  {
    sql: 'SELECT id, count(*) OVER (), count(grp) OVER (), sum(qty) OVER (), max(name) OVER () FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (PARTITION BY grp), avg(price) OVER (PARTITION BY cat), min(d) OVER (PARTITION BY grp), max(name) OVER (PARTITION BY grp) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (PARTITION BY grp ORDER BY id), count(*) OVER (ORDER BY id), avg(f) OVER (PARTITION BY cat ORDER BY id) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (ORDER BY d), count(d) OVER (ORDER BY d), max(price) OVER (ORDER BY d) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, count(*) OVER (ORDER BY d NULLS FIRST), min(qty) OVER (PARTITION BY cat ORDER BY grp DESC) FROM items ORDER BY id',
    duckdb:
      'SELECT id, count(*) OVER (ORDER BY d NULLS FIRST), min(qty) OVER (PARTITION BY cat ORDER BY grp DESC NULLS FIRST) FROM items ORDER BY id',
  },
  { sql: 'SELECT id, sum(big) OVER (PARTITION BY grp ORDER BY id), sum(big) OVER () FROM items ORDER BY id' },
  {
    sql: 'SELECT k, sum(i64) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), sum(m) OVER (ORDER BY k) FROM specials ORDER BY k',
  },
  // ROWS frames
  {
    sql: 'SELECT id, sum(qty) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING), avg(price) OVER (ORDER BY id ROWS 5 PRECEDING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, min(price) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING), max(name) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING), count(price) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(price) OVER (PARTITION BY cat ORDER BY id ROWS BETWEEN 5 PRECEDING AND 2 PRECEDING), min(d) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 2 PRECEDING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), min(ts) OVER (PARTITION BY grp ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), max(f) OVER (ORDER BY id ROWS 10 PRECEDING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT k, max(g) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), min(g) OVER (ORDER BY k ROWS 2 PRECEDING) FROM specials ORDER BY k',
  },
  // RANGE frames with offsets
  { sql: 'SELECT id, sum(qty) OVER (ORDER BY qty RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM items ORDER BY id' },
  {
    sql: 'SELECT id, count(*) OVER (PARTITION BY cat ORDER BY qty DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, grp, count(*) OVER (ORDER BY grp RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), sum(qty) OVER (ORDER BY grp RANGE BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) FROM items ORDER BY id',
    // DuckDB 1.5.6 answers this RANGE ... 2 PRECEDING frame wrongly now and then (59 of 1,500 runs of this query
    // under load, 1 of 1,500 with the sum alone, on 1 thread too: CI failed on it once), so it is asked as what the
    // frame means: the rows whose grp is at most 2 below, and every row for a NULL grp (its peers end the table).
    duckdb:
      'SELECT id, grp, count(*) OVER (ORDER BY grp RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), CASE WHEN grp IS NULL THEN (SELECT sum(qty) FROM items) ELSE (SELECT sum(i2.qty) FROM items i2 WHERE i2.grp <= items.grp - 2) END FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (ORDER BY price RANGE BETWEEN 1000000.5 PRECEDING AND CURRENT ROW) FROM items ORDER BY id',
  },
  {
    sql: "SELECT id, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '7 days' PRECEDING AND CURRENT ROW), sum(qty) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND INTERVAL '1' MONTH FOLLOWING) FROM items ORDER BY id",
  },
  {
    sql: "SELECT id, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '12 hours' PRECEDING AND INTERVAL '12 hours' FOLLOWING) FROM items ORDER BY id",
  },
  {
    sql: "SELECT id, sum(qty) OVER (PARTITION BY cat ORDER BY d DESC RANGE BETWEEN UNBOUNDED PRECEDING AND INTERVAL '30 days' FOLLOWING) FROM items ORDER BY id",
    duckdb:
      "SELECT id, sum(qty) OVER (PARTITION BY cat ORDER BY d DESC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND INTERVAL '30 days' FOLLOWING) FROM items ORDER BY id",
  },
  // GROUPS frames and frame exclusion
  {
    sql: 'SELECT id, sum(qty) OVER (ORDER BY qty GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING), count(*) OVER (PARTITION BY grp ORDER BY qty GROUPS 2 PRECEDING) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, sum(qty) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW), sum(qty) OVER (ORDER BY qty RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, count(*) OVER (ORDER BY qty ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE TIES), max(id) OVER (PARTITION BY qty ORDER BY grp RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE GROUP) FROM items ORDER BY id',
  },
  // Named windows, windows in ORDER BY, several specs, expressions
  {
    sql: 'SELECT id, sum(qty) OVER w, row_number() OVER w, avg(qty) OVER (w ROWS 2 PRECEDING) FROM items WINDOW w AS (PARTITION BY grp ORDER BY id) ORDER BY id',
  },
  {
    sql: 'SELECT id, rank() OVER w2, count(*) OVER w1 FROM items WINDOW w1 AS (PARTITION BY cat), w2 AS (w1 ORDER BY qty) ORDER BY id LIMIT 50',
  },
  { sql: 'SELECT id, qty FROM items ORDER BY rank() OVER (ORDER BY qty DESC), id LIMIT 20' },
  {
    sql: 'SELECT id, rank() OVER (ORDER BY qty) * 10 + 1, count(*) OVER (PARTITION BY flag) - row_number() OVER (PARTITION BY flag ORDER BY id) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT id, row_number() OVER (ORDER BY id) FROM items WHERE qty > 45 ORDER BY id LIMIT 10 OFFSET 5',
  },
  {
    sql: 'SELECT id, rank() OVER (ORDER BY id), sum(qty) OVER (), lag(id) OVER (ORDER BY id) FROM items WHERE id < 0 ORDER BY id',
  },
  { sql: 'SELECT DISTINCT grp, count(*) OVER (PARTITION BY grp) FROM items' },
  {
    sql: 'SELECT id, name, count(*) OVER (PARTITION BY name), rank() OVER (PARTITION BY name ORDER BY id) FROM items ORDER BY id',
  },
  { sql: 'SELECT id, row_number() OVER (PARTITION BY EXTRACT(YEAR FROM d) ORDER BY id) FROM items ORDER BY id' },
  // Windows over GROUP BY
  { sql: 'SELECT grp, sum(qty), rank() OVER (ORDER BY sum(qty) DESC) FROM items GROUP BY grp ORDER BY grp' },
  { sql: 'SELECT grp, sum(sum(qty)) OVER (ORDER BY grp), count(*) OVER () FROM items GROUP BY grp ORDER BY grp' },
  {
    sql: 'SELECT cat, flag, count(*), avg(count(*)) OVER (PARTITION BY cat), max(sum(price)) OVER (PARTITION BY flag) FROM items GROUP BY cat, flag ORDER BY cat, flag',
  },
  // Aggregates with FILTER (WHERE …) over windows
  {
    sql: 'SELECT id, count(*) FILTER (WHERE qty > 20) OVER (PARTITION BY grp ORDER BY id), sum(qty) FILTER (WHERE flag) OVER (PARTITION BY cat ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) FROM items ORDER BY id',
  },
  {
    sql: "SELECT id, avg(f) FILTER (WHERE name LIKE '%a%') OVER w, min(price) FILTER (WHERE grp IS NULL) OVER w, max(d) FILTER (WHERE qty % 3 = 0) OVER w, count(big) FILTER (WHERE big > 0) OVER w FROM items WINDOW w AS (PARTITION BY cat ORDER BY qty, id) ORDER BY id",
  },
  {
    sql: 'SELECT id, sum(price) FILTER (WHERE flag) OVER (ORDER BY qty RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING), count(*) FILTER (WHERE d IS NULL) OVER (ORDER BY grp GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM items ORDER BY id',
  },
  {
    sql: 'SELECT grp, count(*), sum(sum(qty)) FILTER (WHERE grp % 2 = 0) OVER (ORDER BY grp), count(*) FILTER (WHERE grp > 5) OVER () FROM items GROUP BY grp ORDER BY grp',
  },
  {
    sql: "SELECT l_orderkey, l_linenumber, sum(l_extendedprice) FILTER (WHERE l_returnflag = 'R') OVER (PARTITION BY l_orderkey) FROM lineitem ORDER BY l_orderkey, l_linenumber",
  },
  // lineitem
  {
    sql: 'SELECT l_orderkey, l_linenumber, sum(l_extendedprice) OVER (PARTITION BY l_orderkey), row_number() OVER (PARTITION BY l_returnflag ORDER BY l_orderkey, l_linenumber) FROM lineitem ORDER BY l_orderkey, l_linenumber',
  },
  {
    sql: "SELECT l_orderkey, l_linenumber, avg(l_quantity) OVER (PARTITION BY l_shipmode ORDER BY l_shipdate RANGE BETWEEN INTERVAL '10 days' PRECEDING AND CURRENT ROW) FROM lineitem ORDER BY l_orderkey, l_linenumber",
  },
  // DISTINCT ON
  { sql: 'SELECT DISTINCT ON (grp) grp, id, qty FROM items ORDER BY grp, qty DESC, id' },
  {
    sql: 'SELECT DISTINCT ON (cat, flag) cat, flag, id, price FROM items ORDER BY cat, flag, price DESC NULLS LAST, id',
  },
  { sql: 'SELECT DISTINCT ON (cat) cat FROM items' },
  { sql: 'SELECT DISTINCT ON (qty % 5) qty % 5, id FROM items ORDER BY qty % 5, id DESC' },
  { sql: 'SELECT DISTINCT ON (1) grp, id FROM items ORDER BY 1, 2 DESC' },
  { sql: 'SELECT DISTINCT ON (flag, grp) id FROM items ORDER BY grp, flag, id LIMIT 15' },
  { sql: 'SELECT DISTINCT ON (grp) grp, id FROM items WHERE id < 0 ORDER BY grp, id' },
];

differentialSuite('window', cases);
