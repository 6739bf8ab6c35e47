// The pre-parse rewrites (engine/sql/rewrite): what each makes of the text, that string literals, quoted
// names and comments stay untouched, and that syntax errors still point into the original text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NotSupportedError, ParseError } from '../../../../engine/errors.js';
import { parseSql } from '../../../../engine/sql/parse.js';
import { applyEdits } from '../../../../engine/sql/rewrite/edit.js';
import { rewriteSql } from '../../../../engine/sql/rewrite/expression-rewrites.js';
import { tokenize } from '../../../../engine/sql/rewrite/tokenize.js';

const rewrites: [before: string, after: string][] = [
  ['SELECT substring(s FROM 2 FOR 3)', 'SELECT substring(s ,    2 ,   3)'],
  ['SELECT substring(s from 2)', 'SELECT substring(s ,    2)'],
  ['SELECT substring(s FOR 3)', 'SELECT substring(s ,1, 3)'],
  ['SELECT substring(s FOR 3 FROM 2)', 'SELECT substring(s ,    2, 3)'],
  ['SELECT substring(f(a) for g(1, 2) from (2))', 'SELECT substring(f(a) ,    (2), g(1, 2))'],
  ['SELECT substring(f(a, b) FROM (1) FOR g(2))', 'SELECT substring(f(a, b) ,    (1) ,   g(2))'],
  ['SELECT SUBSTRING(x FROM 1 FOR 2), substring(y, 1)', 'SELECT SUBSTRING(x ,    1 ,   2), substring(y, 1)'],
  ['SELECT a IS DISTINCT FROM b', 'SELECT a IS             + b'],
  ['SELECT a is not distinct from b', 'SELECT a is not             + b'],
  ['SELECT sum(DISTINCT x)', 'SELECT __floe_sum.array_agg(DISTINCT x)'],
  ['SELECT min(ALL x), count(all y)', 'SELECT min(    x), count(    y)'],
  ['SELECT stddev(x) FILTER (WHERE y)', 'SELECT __floe_stddev.array_agg(x) FILTER (WHERE y)'],
  ['SELECT sum(x) FILTER (WHERE y), count(DISTINCT x)', 'SELECT sum(x) FILTER (WHERE y), count(DISTINCT x)'],
  ['SELECT sum(x ORDER BY y)', 'SELECT __floe_sum.array_agg(x ORDER BY y)'],
  [
    'SELECT string_agg(DISTINCT a, b || c ORDER BY a)',
    'SELECT __floe_string_agg.array_agg(DISTINCT (a, b || c ) ORDER BY a)',
  ],
  [
    "SELECT string_agg(a, ',' ORDER BY k), string_agg(DISTINCT a, b)",
    "SELECT string_agg(a, ',' ORDER BY k), __floe_string_agg.array_agg(DISTINCT (a, b) )",
  ],
  [
    'SELECT count(*) FILTER (WHERE x > 1) OVER (ORDER BY k)',
    'SELECT __floe_window_filter(count(*)  OVER (ORDER BY k), x > 1)',
  ],
  [
    'SELECT sum(x) filter (where f(y, 2)) over w, lag(x) OVER ()',
    'SELECT __floe_window_filter(sum(x)  over w, f(y, 2)), lag(x) OVER ()',
  ],
  ['SELECT 1 LIMIT NULL OFFSET NULL', 'SELECT 1 LIMIT ALL  OFFSET 0   '],
  ['SELECT 1 + $1::int', 'SELECT 1 + CAST($1 AS int)'],
  ['SELECT ($2::numeric(10, 2))', 'SELECT (CAST($2 AS numeric(10, 2)))'],
  ['SELECT $1::text::int', 'SELECT CAST(CAST($1 AS text) AS int)'],
  ['SELECT $1::double precision * 2', 'SELECT CAST($1 AS double precision) * 2'],
  ['SELECT $1::timestamp without time zone', 'SELECT CAST($1 AS timestamp without time zone)'],
  ["SELECT position('a' IN s || 'b')", "SELECT __floe_position_in('a' ,  s || 'b')"],
  // An escape string becomes the standard literal of its value; what it holds is never rewritten
  ["SELECT E'it\\'s substring(a FROM 1)', E'a\\tb'", "SELECT 'it''s substring(a FROM 1)', 'a\tb'"],
];

for (const [before, after] of rewrites) {
  test(`rewrite: ${before}`, () => assert.equal(rewriteSql(before).sql, after));
}

const untouched = [
  "SELECT 'substring(a FROM 1 FOR 2)', 'x IS DISTINCT FROM y', 'sum(DISTINCT x)', 'LIMIT NULL', '$1::int'",
  'SELECT "substring(a FROM 1)", "a IS DISTINCT FROM b" FROM t',
  'SELECT 1 -- substring(a FROM 1) IS DISTINCT FROM LIMIT NULL sum(DISTINCT x) $1::int',
  'SELECT 1 /* substring(a FROM 1) /* nested */ IS DISTINCT FROM b LIMIT NULL position(a IN b) */',
  "SELECT 'it''s substring(a FROM 1)', $$ x IS DISTINCT FROM y $$, $q$ sum(DISTINCT x) $q$",
  'SELECT substring FROM t',
  'SELECT s.substring(a FROM 1)',
];

for (const sql of untouched) {
  test(`never inside literals, quoted names or comments: ${sql.slice(0, 60)}`, () =>
    assert.equal(rewriteSql(sql).sql, sql));
}

test('the tokenizer covers every character and tracks parenthesis depth', () => {
  const sql = "SELECT f((a), 'b)') -- )\n/* ( */ FROM t";
  const tokens = tokenize(sql);
  assert.equal(tokens.map((t) => t.text).join(''), sql);
  const close = tokens.filter((t) => t.text === ')');
  assert.deepEqual(
    close.map((t) => t.depth),
    [1, 0],
  );
});

test('offsets map back through inserts and same-length replacements', () => {
  const { sql, toOriginal } = applyEdits('ab$1cd', [
    { start: 2, end: 2, text: 'CAST(' },
    { start: 4, end: 4, text: ')' },
  ]);
  assert.equal(sql, 'abCAST($1)cd');
  assert.deepEqual([0, 2, 6, 7, 9, 10, 11].map(toOriginal), [0, 2, 2, 2, 4, 4, 5]);
});

/** Each query has one syntax error, at the given line and column of the original text. */
const errors: [sql: string, line: number, column: number][] = [
  ['SELECT substring(name FROM 1 FOR 2) FROM items WHERE ,', 1, 54],
  ['SELECT sum(DISTINCT qty), stddev(qty) FILTER (WHERE id > 1) FROM items WHERE ,', 1, 78],
  ['SELECT $1::int + 1, $2::numeric(10,2) FROM items WHERE ,', 1, 56],
  ["SELECT position('a' IN name), 1 IS DISTINCT FROM 2\nFROM items\nWHERE ,", 3, 7],
  ['SELECT sum(DISTINCT x)\n  FROM t LIMIT NULL OFFSET NULL ORDER', 2, 38],
  ["EXPLAIN SELECT substring('x' FROM 1) FROM t WHERE ,", 1, 51],
  ['SELECT substring(name FOR 2 FROM 1) FROM items WHERE ,', 1, 54],
  ['SELECT sum(x) FILTER (WHERE y > 1) OVER (ORDER BY k) FROM items WHERE ,', 1, 71],
  ['SELECT sum(x) FILTER (WHERE y >) OVER (ORDER BY k) FROM items', 1, 51],
  ['SELECT substring(name FOR 2 + FROM 1) FROM items', 1, 37],
  ["SELECT 'substring(a FROM 1)' FROM t WHERE ,", 1, 43],
];

for (const [sql, line, column] of errors) {
  test(`syntax error positions survive the rewrites: ${sql.replace(/\n/g, ' ').slice(0, 60)}`, () => {
    assert.throws(
      () => parseSql(sql),
      (e: unknown) => {
        assert.ok(e instanceof ParseError);
        assert.match(e.message, new RegExp(`^syntax error at line ${line}, column ${column}: `));
        return true;
      },
    );
  });
}

test('window aggregates the parser cannot read are refused with NotSupportedError', () => {
  for (const [sql, message] of [
    ['SELECT sum(DISTINCT x) OVER () FROM t', 'DISTINCT is not implemented for window functions'],
    [
      'SELECT stddev(x) FILTER (WHERE y) OVER w FROM t',
      'aggregate function stddev as a window function is not supported yet',
    ],
  ])
    assert.throws(
      () => parseSql(sql!),
      (e: unknown) => e instanceof NotSupportedError && e.message === message,
    );
});

test('string_agg with a separator expression and ORDER BY reaches the binder with its separator', () => {
  const { ast } = parseSql('SELECT string_agg(a, b || c ORDER BY k DESC) FROM t');
  const e = ast.columns[0].expr;
  assert.equal(e.name, 'string_agg');
  assert.equal(e.args.expr.type, 'column_ref');
  assert.equal(e.args.separator.delimiter.type, 'binary_expr');
  assert.equal(e.args.orderby[0].type, 'DESC');
});

test('a window FILTER reaches the binder as the call with `filter.where`', () => {
  const { ast } = parseSql('SELECT count(*) FILTER (WHERE x > 1) OVER (ORDER BY k) FROM t');
  const e = ast.columns[0].expr;
  assert.equal(e.type, 'aggr_func');
  assert.equal(String(e.name).toLowerCase(), 'count');
  assert.ok(e.over);
  assert.equal(e.filter.where.type, 'binary_expr');
});

test('IS DISTINCT FROM reaches the binder as its own operator, the marker gone', () => {
  const { ast } = parseSql('SELECT a IS NOT DISTINCT FROM b + 1 AND c');
  const e = ast.columns[0].expr;
  assert.equal(e.operator, 'AND');
  assert.equal(e.left.operator, 'IS NOT DISTINCT FROM');
  assert.equal(e.left.right.type, 'binary_expr');
  assert.equal(e.left.right.left.type, 'column_ref');
});

test('aggregate calls reach the binder as aggr_func with a lower-case name', () => {
  const { ast } = parseSql('SELECT sum(DISTINCT x) FILTER (WHERE y), stddev(x), STRING_AGG(s, z)');
  const [a, b, c] = ast.columns.map((col: { expr: unknown }) => col.expr);
  assert.equal(a.type, 'aggr_func');
  assert.equal(a.name, 'sum');
  assert.equal(a.args.distinct, 'DISTINCT');
  assert.ok(a.filter.where);
  assert.equal(b.type, 'aggr_func');
  assert.equal(b.name, 'stddev');
  assert.equal(c.name, 'string_agg');
  assert.equal(c.args.separator.delimiter.column.expr.value, 'z');
});

test('position(a IN b) becomes position(b, a)', () => {
  const { ast } = parseSql("SELECT position('x' IN name)");
  const e = ast.columns[0].expr;
  assert.equal(e.name.name[0].value, 'position');
  assert.deepEqual(
    e.args.value.map((a: { type: string }) => a.type),
    ['column_ref', 'single_quote_string'],
  );
});
