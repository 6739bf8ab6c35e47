// The one rewrite lexer: what each kind of token spans, and what the rewrites built on it make of edge cases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSql } from '../../../../../engine/sql/parse.js';
import { applyEdits } from '../../../../../engine/sql/rewrite/edit.js';
import { matchingParen, significant, tokenize } from '../../../../../engine/sql/rewrite/tokenize.js';

/** Significant tokens as `kind:text`. */
const cases: [sql: string, tokens: string[]][] = [
  [
    "'it''s' E'a\\'b' b'01' X'ff' n'x'",
    ["string:'it''s'", "string:E'a\\'b'", "string:b'01'", "string:X'ff'", "string:n'x'"],
  ],
  ['$$ a $$ $q$ $$ ) $q$ $é$x$é$', ['string:$$ a $$', 'string:$q$ $$ ) $q$', 'string:$é$x$é$']],
  ['$1 $12::int $name $', ['param:$1', 'param:$12', 'op:::', 'word:int', 'variable:$name', 'op:$']],
  ['a /* x /* y */ z */ b -- c\nd', ['word:a', 'word:b', 'word:d']],
  ['"a ""b""" ä€x a\u00a0b', ['quoted:"a ""b"""', 'word:ä€x', 'word:a', 'word:b']],
  ['1 .5 1.e3 2E-4 a<=b', ['number:1', 'number:.5', 'number:1.e3', 'number:2E-4', 'word:a', 'op:<=', 'word:b']],
  ['(a, b);', ['punct:(', 'word:a', 'punct:,', 'word:b', 'punct:)', 'punct:;']],
];

for (const [sql, expected] of cases) {
  test(`tokenize: ${sql.replace(/\n/g, ' ')}`, () => {
    const all = tokenize(sql);
    assert.equal(all.map((t) => t.text).join(''), sql);
    assert.deepEqual(
      significant(all).map((t) => `${t.kind}:${t.text}`),
      expected,
    );
  });
}

test('unterminated strings and comments run to the end of the text', () => {
  for (const sql of ["a 'b", 'a "b', 'a $$b', 'a /* b /* c */', "a E'b\\'"]) {
    assert.equal(significant(tokenize(sql)).length, sql.startsWith('a /*') ? 1 : 2, sql);
  }
});

test('matchingParen: the `)` at the same depth, -1 when unbalanced (a stray `)` does not go below depth 0)', () => {
  const t = significant(tokenize(') (a (b)) (c'));
  assert.deepEqual(
    t.map((x, i) => (x.text === '(' ? matchingParen(t, i) : null)),
    [null, 6, null, 5, null, null, null, -1, null],
  );
});

test('an edit with a `source` maps offsets inside its text back to that source', () => {
  // `WINDOW w AS (…) ORDER BY a` -> `ORDER BY a WINDOW w AS (…)`, as window-clause.ts moves it.
  const sql = 'x W ORDER BY a';
  const { sql: out, toOriginal } = applyEdits(sql, [
    { start: 2, end: 2, text: 'ORDER BY a ', source: 4 },
    { start: 4, end: 14, text: '' },
  ]);
  assert.equal(out, 'x ORDER BY a W ');
  assert.deepEqual([0, 2, 11, 13].map(toOriginal), [0, 4, 13, 2]);
});

/** Texts whose meaning depends on lexing the way PostgreSQL (or node-sql-parser, for `$name`) does. */
const parsed: [sql: string, check: (ast: ReturnType<typeof parseSql>['ast']) => unknown][] = [
  // Block comments nest, so the UNION is inside one.
  ['SELECT 1 /* a /* b */ UNION SELECT 2 */', (ast) => ast.type === 'select'],
  // `$natural` is one token, not the keyword NATURAL.
  ['SELECT $natural, 1 FROM a JOIN b USING (x)', (ast) => ast.from[1].using.length === 1],
  ['SELECT $union FROM t', (ast) => ast.type === 'select'],
];

for (const [sql, check] of parsed) test(`parses: ${sql}`, () => assert.ok(check(parseSql(sql).ast)));
