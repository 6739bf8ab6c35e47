// The window-spec rewrite: what node-sql-parser receives, what it never touches, and where syntax errors point.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSql } from '../../../../../engine/sql/parse.js';
import { rewriteWindowSql as rewriteSql } from '../../../../../engine/sql/rewrite/window-rewrite.js';

const rewrites: [sql: string, parserText: string][] = [
  ['SELECT rank() OVER (ORDER BY a) FROM t', 'SELECT rank() OVER (ORDER BY a ROWS 0 PRECEDING) FROM t'],
  [
    'SELECT sum(a) OVER w FROM t WINDOW w AS ()',
    'SELECT sum(a) OVER ( ROWS 0 PRECEDING) FROM t WINDOW w AS ( ROWS 1 PRECEDING)',
  ],
  [
    "SELECT sum(a) OVER (w ORDER BY d RANGE INTERVAL '1' DAY PRECEDING) FROM t",
    'SELECT sum(a) OVER ( ORDER BY d  ROWS 0 PRECEDING) FROM t',
  ],
  ['SELECT percent_rank() OVER () FROM t', 'SELECT rank() OVER ( ROWS 0 PRECEDING) FROM t'],
  [
    'SELECT count(*) OVER (PARTITION BY a % 2 ORDER BY b) FROM t',
    'SELECT count(*) OVER ( ORDER BY b ROWS 0 PRECEDING) FROM t',
  ],
  [
    'SELECT a FROM t WINDOW w AS (ORDER BY a) ORDER BY a LIMIT 3',
    'SELECT a FROM t ORDER BY a LIMIT 3 WINDOW w AS (ORDER BY a ROWS 0 PRECEDING) ',
  ],
  // Literals, quoted names and comments are never rewritten.
  [
    `SELECT 'x OVER (ROWS 1 PRECEDING)', "over" FROM t -- OVER (RANGE 1 PRECEDING)\n/* OVER w */`,
    `SELECT 'x OVER (ROWS 1 PRECEDING)', "over" FROM t -- OVER (RANGE 1 PRECEDING)\n/* OVER w */`,
  ],
  ["SELECT $$ OVER ( $$, E'\\' OVER (' FROM t", "SELECT $$ OVER ( $$, E'\\' OVER (' FROM t"],
];

for (const [sql, expected] of rewrites) test(`rewrite: ${sql}`, () => assert.equal(rewriteSql(sql).text, expected));

test('offsets in the rewritten text map back to the original', () => {
  const sql = 'SELECT sum(a) OVER (PARTITION BY b ORDER BY c RANGE 2 PRECEDING) + x FROM t';
  const r = rewriteSql(sql);
  assert.equal(r.toOriginal(r.text.indexOf('+ x')), sql.indexOf('+ x'));
  assert.equal(r.toOriginal(r.text.indexOf('ORDER BY c')), sql.indexOf('ORDER BY c'));
});

const errors: [sql: string, message: string][] = [
  [
    'SELECT sum(a) OVER (ORDER BY c ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWNG) FROM t',
    'line 1, column 63: unexpected "FOLLOWNG"',
  ],
  ['SELECT sum(a) OVER (ORDER BY c RANGE BETWEEN 1 PRECEDING) FROM t', 'line 1, column 57: unexpected ")"'],
  ['SELECT sum(a) OVER (PARTITION BY b +* 2 ORDER BY c ROWS 1 PRECEDING) FROM t', 'line 1, column 39: unexpected "2"'],
  // The ORDER BY after WINDOW moves in front of it for the parser; errors in either still point at the original.
  ['SELECT a FROM t WINDOW w AS (ORDER BY c +* 1) ORDER BY a', 'line 1, column 44: unexpected "1"'],
  ['SELECT a FROM t WINDOW w AS (ORDER BY c) ORDER BY a +* 1', 'line 1, column 56: unexpected "1"'],
  ['SELECT sum(a) OVER (ORDER BY c ROWS 1 PRECEDING EXCLUDE OTHERS) FROM t', 'line 1, column 57: unexpected "OTHERS"'],
];

for (const [sql, message] of errors) {
  test(`syntax error: ${sql}`, () =>
    assert.throws(
      () => parseSql(sql),
      (e: Error) => e.message.includes(message),
    ));
}
