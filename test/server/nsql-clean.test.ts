// cleanSql and hiddenWrite: what a model's answer is reduced to before validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanSql, hiddenWrite, splitStatements } from '../../server/nsql/clean-sql.js';

describe('cleanSql', () => {
  const cases: [string, string | null][] = [
    ['SELECT 1', 'SELECT 1'],
    ['  select 1;  ', 'select 1'],
    ['```sql\nSELECT a FROM t;\n```', 'SELECT a FROM t'],
    ['Here is the query:\n```sql\nSELECT a\nFROM t\n```\nThis returns a.', 'SELECT a\nFROM t'],
    ['```\nWITH x AS (SELECT 1) SELECT * FROM x\n```', 'WITH x AS (SELECT 1) SELECT * FROM x'],
    ['Here is the query:\nSELECT a FROM t;', 'SELECT a FROM t'],
    ['{"sql": "SELECT a FROM t;"}', 'SELECT a FROM t'],
    ['```json\n{"sql": "SELECT 2"}\n```', 'SELECT 2'],
    ["SELECT * FROM t WHERE s = 'a;b'; DROP TABLE t;", "SELECT * FROM t WHERE s = 'a;b'"],
    ['SELECT "x;y" FROM t; SELECT 2', 'SELECT "x;y" FROM t'],
    ['SELECT $$a;b$$; SELECT 2', 'SELECT $$a;b$$'],
    ['SELECT 1 -- a; comment\n, 2; SELECT 3', 'SELECT 1 -- a; comment\n, 2'],
    ['SET x = 1; SELECT 2;', 'SELECT 2'],
    ['-- SELECT a FROM t', 'SELECT a FROM t'],
    ['DROP TABLE t', null],
    ['I cannot answer that.', null],
    ['', null],
    ['```sql\n```', null],
  ];
  for (const [answer, expected] of cases) it(JSON.stringify(answer), () => assert.equal(cleanSql(answer), expected));
});

describe('hiddenWrite', () => {
  const cases: [string, string | null][] = [
    ['SELECT * INTO t2 FROM t', 'INTO'],
    ['WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', 'DELETE'],
    ['SELECT \'insert into\' AS s, "into" FROM t', null],
    ['SELECT a /* create */ FROM t', null],
    ['SELECT updated_at FROM t', null],
  ];
  for (const [sql, expected] of cases) it(sql, () => assert.equal(hiddenWrite(sql), expected));
});

it('splitStatements keeps doubled quotes inside literals', () => {
  assert.deepEqual(splitStatements("SELECT 'it''s;'; SELECT 2"), ["SELECT 'it''s;'", ' SELECT 2']);
});
