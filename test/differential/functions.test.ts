// Differential: SQL functions, aggregates and the parser-gap rewrites (engine/sql/rewrite) vs DuckDB.
import { type DiffCase, differentialSuite } from './harness.js';

const cases: DiffCase[] = [
  // Parser gaps: SQL-standard syntax the rewrites make parseable.
  {
    sql: 'SELECT id, substring(name FROM 2 FOR 3), substring(name FROM 3), substring(name FOR 2) FROM items WHERE id <= 80',
  },
  { sql: "SELECT substring(CAST(id AS text) || '-' || cat FROM 1 FOR 4) AS k, count(*) FROM items GROUP BY 1" },
  { sql: 'SELECT id, substring(name FROM qty % 4 FOR grp) FROM items WHERE id <= 80 AND grp >= 0' },
  // The reversed form FOR … FROM …: DuckDB's parser lacks it, so it reads the FROM … FOR … spelling.
  {
    sql: 'SELECT id, substring(name FOR grp FROM qty % 4), substring(cat FOR 2 FROM 2) FROM items WHERE id <= 80 AND grp >= 0',
    duckdb:
      'SELECT id, substring(name FROM qty % 4 FOR grp), substring(cat FROM 2 FOR 2) FROM items WHERE id <= 80 AND grp >= 0',
  },
  {
    sql: 'SELECT id, grp IS DISTINCT FROM qty % 10, grp IS NOT DISTINCT FROM NULL, name IS DISTINCT FROM cat FROM items WHERE id <= 80',
  },
  { sql: 'SELECT count(*) FROM items WHERE grp IS DISTINCT FROM 3 AND name IS NOT DISTINCT FROM cat' },
  { sql: 'SELECT count(*) FROM items WHERE NOT grp IS DISTINCT FROM 2' },
  {
    sql: "SELECT id, position('a' IN name), position(name IN 'cherry pie'), position('r' IN name || 'r') FROM items WHERE id <= 80",
  },
  {
    sql: 'SELECT id FROM items ORDER BY id LIMIT NULL OFFSET 4990',
    duckdb: 'SELECT id FROM items ORDER BY id OFFSET 4990',
  },
  {
    sql: "SELECT id, trim(BOTH 'x' FROM name), trim(LEADING ' ' FROM name), trim(TRAILING 'y' FROM name) FROM items WHERE id <= 80",
  },
  // Aggregates with DISTINCT / ALL / FILTER.
  {
    sql: 'SELECT sum(DISTINCT qty), avg(DISTINCT qty), min(DISTINCT qty), max(DISTINCT qty), min(ALL qty), count(ALL grp) FROM items',
  },
  { sql: 'SELECT grp, sum(DISTINCT price), count(DISTINCT cat), sum(DISTINCT big) FROM items GROUP BY grp' },
  { sql: 'SELECT cat, sum(DISTINCT qty) FILTER (WHERE flag), avg(f) FILTER (WHERE qty > 25) FROM items GROUP BY cat' },
  // Statistics: floe returns double precision (PostgreSQL: numeric for integer and numeric inputs).
  {
    sql: 'SELECT stddev(qty), stddev_samp(price), stddev_pop(f), variance(qty), var_samp(rate), var_pop(big) FROM items',
  },
  { sql: 'SELECT grp, stddev(qty), variance(price), var_pop(f) FROM items GROUP BY grp' },
  {
    sql: 'SELECT cat, stddev(qty) FILTER (WHERE flag), variance(DISTINCT qty), stddev_pop(DISTINCT grp) FROM items GROUP BY cat',
  },
  { sql: 'SELECT stddev(qty), variance(price), stddev_pop(qty) FROM items WHERE id = 1' },
  { sql: 'SELECT stddev(nothing), var_pop(nothing), stddev(qty) FROM items WHERE id > 100000' },
  { sql: 'SELECT l_returnflag, stddev(l_quantity), variance(l_extendedprice) FROM lineitem GROUP BY 1' },
  // Boolean aggregates.
  // DuckDB has no EVERY (the SQL-standard name of bool_and).
  {
    sql: 'SELECT grp, bool_and(flag), bool_or(flag), every(qty > 1), bool_or(qty > 49) FROM items GROUP BY grp',
    duckdb: 'SELECT grp, bool_and(flag), bool_or(flag), bool_and(qty > 1), bool_or(qty > 49) FROM items GROUP BY grp',
  },
  { sql: 'SELECT bool_and(flag) FILTER (WHERE qty > 45), bool_or(nothing > 0), bool_and(qty > 0) FROM items' },
  // string_agg (the harness compares row order whenever the text says ORDER BY, so these sort their groups).
  { sql: "SELECT grp, string_agg(name, ',' ORDER BY name, id) FROM items WHERE id <= 200 GROUP BY grp ORDER BY grp" },
  { sql: "SELECT cat, string_agg(DISTINCT name, '|' ORDER BY name DESC) FROM items GROUP BY cat ORDER BY cat" },
  {
    sql: "SELECT grp, string_agg(CAST(id AS text), '-' ORDER BY id DESC) FILTER (WHERE qty < 5) FROM items WHERE id < 500 GROUP BY grp ORDER BY grp",
  },
  { sql: "SELECT string_agg(name, ', ' ORDER BY name NULLS FIRST, id) FROM items WHERE id < 60" },
  { sql: "SELECT cat, string_agg(name, ';' ORDER BY name DESC NULLS LAST, id) FROM items GROUP BY cat ORDER BY cat" },
  { sql: "SELECT grp, string_agg(DISTINCT cat, '-' ORDER BY cat DESC) FROM items GROUP BY grp ORDER BY grp" },
  // DISTINCT without ORDER BY: PostgreSQL (and floe) sort the values; DuckDB's order is unspecified.
  {
    sql: "SELECT flag, string_agg(DISTINCT cat, ',') FROM items GROUP BY flag",
    duckdb: "SELECT flag, string_agg(DISTINCT cat, ',' ORDER BY cat) FROM items GROUP BY flag",
  },
  // ORDER BY inside order-insensitive aggregates changes nothing.
  {
    sql: 'SELECT grp, sum(qty ORDER BY id), count(name ORDER BY id DESC), max(name ORDER BY id), avg(f ORDER BY qty) FROM items GROUP BY grp ORDER BY grp',
  },
  {
    sql: "SELECT l_returnflag, string_agg(l_shipmode, '' ORDER BY l_shipmode DESC, l_orderkey) FROM lineitem WHERE l_orderkey < 40 GROUP BY 1 ORDER BY 1",
  },
  // A separator per row (DuckDB takes only constants): each value after the first is preceded by its own row's;
  // without ORDER BY the order is the scan's, which is id order in both engines.
  {
    sql: 'SELECT string_agg(cat, name) FROM items WHERE id < 40',
    duckdb:
      "SELECT string_agg(CASE WHEN r = 1 THEN cat ELSE coalesce(name, '') || cat END, '' ORDER BY id) FROM (SELECT id, cat, name, row_number() OVER (ORDER BY id) AS r FROM items WHERE id < 40 AND cat IS NOT NULL)",
  },
  // Comparison functions.
  {
    sql: "SELECT id, greatest(qty, grp, 10), least(qty, grp), greatest(price, rate), least(d, DATE '1995-06-01') FROM items WHERE id <= 80",
  },
  { sql: "SELECT id, greatest(name, cat), least(name, cat, 'm') FROM items WHERE id <= 80" },
  // Rounding: numeric stays exact; round(numeric) rounds half away from zero.
  {
    sql: 'SELECT id, round(price, 1), round(price), round(price, -2), trunc(price, 1), trunc(price), floor(price), ceil(price) FROM items WHERE id <= 80',
  },
  {
    sql: 'SELECT round(1.2345, 2), round(-2.5), round(2.5), round(0.5), round(-0.05, 1), trunc(-1.99), floor(-1.5), ceil(1.01), ceiling(-0.5)',
  },
  // round(double) is half to even in PostgreSQL (rint); DuckDB rounds half away from zero, so compare away from .5.
  {
    sql: 'SELECT id, round(f), trunc(f), floor(f), ceil(f), round(f, 2) FROM items WHERE id <= 80 AND f - floor(f) <> 0.5',
    // PostgreSQL has no round(double precision, integer) (floe and DuckDB do): round the numeric.
    postgres:
      'SELECT id, round(f), trunc(f), floor(f), ceil(f), round(f::numeric, 2) FROM items WHERE id <= 80 AND f - floor(f) <> 0.5',
  },
  {
    sql: 'SELECT id, abs(qty - 25), abs(price - 100000), abs(f), sign(qty - 25), sign(price - 5000000), sign(f) FROM items WHERE id <= 80',
  },
  { sql: 'SELECT id, mod(qty, 7), mod(-qty, 7), mod(big, 1000), mod(price, 3) FROM items WHERE id <= 80' },
  // Math in double precision.
  {
    sql: 'SELECT id, sqrt(qty), power(qty, 2), exp(rate / 100), ln(qty), log10(qty), cbrt(qty - 25) FROM items WHERE id <= 80',
  },
  { sql: 'SELECT power(2, 10), pow(2.0, 0.5), log(1000), ln(1), exp(0), pi(), degrees(pi()), radians(180)' },
  { sql: 'SELECT log(2, 64), log(10, 0.001)', duckdb: 'SELECT log2(64), log10(0.001)' },
  // Strings.
  { sql: 'SELECT id, left(name, 3), right(name, 2), left(name, -2), right(name, -3) FROM items WHERE id <= 80' },
  {
    sql: "SELECT id, lpad(name, 12, '*'), rpad(name, 12, '-='), lpad(name, 3), rpad(cat, 2) FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, lpad(name, 12, '*'), rpad(name, 12, '-='), lpad(name, 3, ' '), rpad(cat, 2, ' ') FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT id, split_part(name, ' ', 1), split_part(name, 'e', 2), split_part(cat || ',x', ',', -1) FROM items WHERE id <= 80",
  },
  { sql: "SELECT id, starts_with(name, 'ch'), reverse(name), repeat(cat, 2) FROM items WHERE id <= 80" },
  // concat_ws prints booleans as t / f (PostgreSQL's output function); DuckDB as true / false.
  {
    sql: "SELECT id, translate(name, 'aeiou', 'AEI'), concat_ws('/', name, cat, grp, flag), ascii(name), md5(name) FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, translate(name, 'aeiou', 'AEI'), concat_ws('/', name, cat, grp, left(CAST(flag AS text), 1)), ascii(name), md5(name) FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT chr(65), chr(128640), ascii('🚀'), octet_length('straße'), length('straße')",
    duckdb: "SELECT chr(65), chr(128640), ascii('🚀'), strlen('straße'), length('straße')",
  },
  // PostgreSQL maps case per character (ß stays); DuckDB has no initcap, so these are PostgreSQL's answers.
  {
    sql: "SELECT upper('straße'), lower('ÀÉÎ'), initcap('hello wORLD-foo bar_baz 2nd')",
    duckdb: "SELECT 'STRAßE', lower('ÀÉÎ'), 'Hello World-Foo Bar_Baz 2nd'",
  },
  // Regular expressions.
  // DuckDB's `~` is a full match (its SIMILAR TO); PostgreSQL's searches, like regexp_matches.
  {
    sql: "SELECT id, name ~ '^[a-z]+$', name ~* '^APP', name !~ 'e', name !~* 'E' FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, regexp_matches(name, '^[a-z]+$'), regexp_matches(name, '^APP', 'i'), NOT regexp_matches(name, 'e'), NOT regexp_matches(name, 'E', 'i') FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT id, regexp_replace(name, '[aeiou]', '_'), regexp_replace(name, '([aeiou])', '<\\1>', 'g'), regexp_replace(name, 'E', 'x', 'gi') FROM items WHERE id <= 80",
  },
  // Groups that did not take part, swapped groups, the whole match, over NULLs and non-ASCII names.
  {
    sql: "SELECT id, regexp_replace(name, '(a)|(e)', '[\\1|\\2]', 'g'), regexp_replace(name, '^(.)(.*)$', '\\2\\1'), regexp_replace(name, '[aeiou]', '<\\&>') FROM items WHERE id <= 80",
    // DuckDB (RE2) spells the whole match \0.
    duckdb:
      "SELECT id, regexp_replace(name, '(a)|(e)', '[\\1|\\2]', 'g'), regexp_replace(name, '^(.)(.*)$', '\\2\\1'), regexp_replace(name, '[aeiou]', '<\\0>') FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT count(*) FROM items WHERE name ~ 'r{2}' OR cat ~ '^(al|be)'",
    duckdb: "SELECT count(*) FROM items WHERE regexp_matches(name, 'r{2}') OR regexp_matches(cat, '^(al|be)')",
  },
  {
    sql: "SELECT id, name SIMILAR TO '%(rr|ie)%', name NOT SIMILAR TO '[a-c]%', cat SIMILAR TO '_e%' FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, regexp_full_match(name, '.*(rr|ie).*'), NOT regexp_full_match(name, '[a-c].*'), regexp_full_match(cat, '.e.*') FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT id, regexp_substr(name, '[aeiou]+'), substring(name FROM 'h(e.)') FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, nullif(regexp_extract(name, '[aeiou]+'), ''), nullif(regexp_extract(name, 'h(e.)', 1), '') FROM items WHERE id <= 80",
  },
  // Dates: EXTRACT is numeric in floe (PostgreSQL 14+), bigint or double in DuckDB; the text agrees.
  {
    sql: 'SELECT id, EXTRACT(WEEK FROM d), EXTRACT(ISOYEAR FROM d), EXTRACT(ISODOW FROM d), EXTRACT(DECADE FROM d), EXTRACT(CENTURY FROM d), EXTRACT(MILLENNIUM FROM d) FROM items WHERE id <= 80',
  },
  {
    sql: 'SELECT id, EXTRACT(MILLISECONDS FROM ts), EXTRACT(MICROSECONDS FROM ts), EXTRACT(SECOND FROM ts), EXTRACT(EPOCH FROM ts) FROM items WHERE id <= 80',
    duckdb:
      'SELECT id, CAST(EXTRACT(MICROSECONDS FROM ts) / 1000 AS DECIMAL(18,3)), EXTRACT(MICROSECONDS FROM ts), CAST(EXTRACT(MICROSECONDS FROM ts) / 1e6 AS DECIMAL(18,6)), CAST(epoch_us(ts) / 1e6 AS DECIMAL(18,6)) FROM items WHERE id <= 80',
  },
  // date_part('milliseconds') keeps the fraction in PostgreSQL (seconds × 1000); DuckDB truncates it.
  {
    sql: "SELECT id, date_part('week', d), date_part('isoyear', ts), date_part('milliseconds', ts) FROM items WHERE id <= 40",
    duckdb:
      "SELECT id, date_part('week', d), date_part('isoyear', ts), EXTRACT(MICROSECONDS FROM ts) / 1000 FROM items WHERE id <= 40",
  },
  { sql: 'SELECT make_date(2024, 2, 29), make_date(1999, 12, 31), make_timestamp(2024, 1, 2, 3, 4, 5.25)' },
  {
    sql: 'SELECT id, make_date(EXTRACT(YEAR FROM d)::int, 1, 1) FROM items WHERE id <= 40',
    duckdb: 'SELECT id, make_date(year(d)::int, 1, 1) FROM items WHERE id <= 40',
  },
  {
    sql: "SELECT id, to_char(ts, 'YYYY-MM-DD HH24:MI:SS'), to_char(d, 'DD/MM/YY'), to_char(ts, 'HH12:MI AM') FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, strftime(ts, '%Y-%m-%d %H:%M:%S'), strftime(d, '%d/%m/%y'), strftime(ts, '%I:%M %p') FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT id, to_char(d, 'FMMonth FMDD, YYYY'), to_char(d, 'Dy Mon'), to_char(d, 'Day') FROM items WHERE id <= 80",
    duckdb:
      "SELECT id, strftime(d, '%B %-d, %Y'), strftime(d, '%a %b'), rpad(strftime(d, '%A'), 9, ' ') FROM items WHERE id <= 80",
  },
  {
    sql: "SELECT id, date_trunc('week', d), date_trunc('quarter', ts), date_trunc('minute', ts) FROM items WHERE id <= 40",
    // PostgreSQL truncates a date as timestamptz; floe (no time zones) as timestamp: the same instant in UTC.
    postgres:
      "SELECT id, date_trunc('week', d::timestamp), date_trunc('quarter', ts), date_trunc('minute', ts) FROM items WHERE id <= 40",
  },
  // age(a, b): DuckDB prints intervals differently, so these compare and order them (both count a month as 30 days).
  { sql: "SELECT count(*) FROM items WHERE age(ts, d) > INTERVAL '1 year 6 months'" },
  { sql: 'SELECT id FROM items WHERE d IS NOT NULL AND ts IS NOT NULL ORDER BY age(ts, d), id LIMIT 200' },
  { sql: 'SELECT id FROM items ORDER BY age(ts, d) DESC NULLS LAST, id' },
  {
    sql: 'SELECT id, extract(year FROM age(ts, d)), extract(month FROM age(ts, d)), extract(day FROM age(ts, d)), extract(hour FROM age(ts, d)) FROM items WHERE id <= 300',
  },
  {
    sql: "SELECT cat, count(*) FROM items WHERE age(ts, TIMESTAMP '2000-02-29') < age(d, DATE '1999-12-31') GROUP BY cat",
  },
  // Parameters cast inside expressions.
  { sql: 'SELECT id, qty + CAST(2 AS int), (CAST(3 AS int)) * qty FROM items WHERE id <= 20' },
];

differentialSuite('functions', cases);
