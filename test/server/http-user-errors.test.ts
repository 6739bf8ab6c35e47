// Issue 32's inputs over real HTTP: each answers PostgreSQL's result or a clear 400, in bounded time, never a 500.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;

before(async () => {
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }]);
});
after(() => srv.close());

/** POSTs `sql`; the status, the body and how long the answer took. */
async function ask(sql: string): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const res = await post(srv.sql, sql);
  return { status: res.status, text: res.text, ms: performance.now() - t0 };
}

describe('session settings sent on connect', () => {
  for (const sql of [
    "SET TIME ZONE 'UTC'",
    "SET timezone = 'UTC'",
    'SET search_path TO public',
    "SET client_encoding TO 'UTF8'",
    "SET application_name = 'psql'",
    'SET statement_timeout = 0',
    'SET datestyle TO ISO',
    'SET extra_float_digits = 3',
  ]) {
    it(`${sql}: 200 with no rows`, async () => {
      assert.deepEqual(await ask(sql).then(({ status, text }) => [status, text]), [200, '[]']);
    });
  }

  it('SHOW timezone answers UTC', async () => {
    const { status, text } = await ask('SHOW timezone');
    assert.deepEqual([status, text], [200, '[{"TimeZone":"UTC"}]']);
  });

  it('a setting floe cannot honour, or an unknown one: 400 saying so', async () => {
    const zone = await ask("SET TIME ZONE 'Europe/Paris'");
    assert.equal(zone.status, 400);
    assert.match(zone.text, /floe cannot set timezone to 'Europe\/Paris'/);
    const unknown = await ask('SET nope = 1');
    assert.deepEqual([unknown.status, unknown.text], [400, 'unrecognized configuration parameter "nope"']);
  });
});

describe('inputs that answered 500 or hung', () => {
  const cases: [sql: string, status: number, body: RegExp][] = [
    [';', 400, /^empty query/],
    ['VALUES ()', 400, /^syntax error at line 1, column 9: unexpected "\)"/],
    [`SELECT ${'NOT '.repeat(10_000)}TRUE`, 400, /^stack depth limit exceeded/],
    [`SELECT ${'('.repeat(200)}=${')'.repeat(200)}`, 400, /^syntax error at line 1, column 208: unexpected "="/],
    ["SELECT length(lpad('x', 2000000000, 'y'))", 400, /^requested length too large/],
    ["SELECT DATE '2024-01-01' + 2147483647", 400, /^date out of range$/],
    ['SELECT sum(1) GROUP BY 1', 400, /^aggregate functions are not allowed in GROUP BY$/],
    ["SELECT COALESCE('R', TRUE AND FALSE)", 400, /^invalid input syntax for type boolean: "R"$/],
    ['SELECT NULL - 1 AS x', 200, /^\[\{"x":null\}\]$/],
    ['SELECT round(1, -2147483648) AS x', 200, /^\[\{"x":"?0"?\}\]$/],
    ['SELECT 1 IN (SELECT 1) AS x', 200, /^\[\{"x":true\}\]$/],
    ['SELECT (SELECT name FROM people LIMIT 0) AS x', 200, /^\[\{"x":null\}\]$/],
    ["SELECT INTERVAL '7 week'::numeric", 400, /^cannot cast type interval to numeric/],
    [
      'SELECT 1 AS x, count(*) AS n FROM people GROUP BY ROLLUP (1, TRUE OR FALSE) ORDER BY x',
      200,
      /^\[\{"x":1,"n":5\},\{"x":1,"n":5\},\{"x":null,"n":5\}\]$/,
    ],
  ];
  for (const [sql, status, body] of cases) {
    it(`${sql.length > 60 ? `${sql.slice(0, 57)}…` : sql}: ${status}`, async () => {
      const answer = await ask(sql);
      assert.equal(answer.status, status, answer.text);
      assert.match(answer.text, body);
      assert.ok(answer.ms < 10_000, `took ${answer.ms} ms`);
    });
  }

  it('a syntax error in a 1 MB one-line body quotes a window of it, not the line', async () => {
    const sql = `SELECT ${'x'.repeat(500_000)} FROM people WHERE ) ${'y'.repeat(500_000)}`;
    const { status, text } = await ask(sql);
    assert.equal(status, 400);
    assert.match(text, /^syntax error at line 1, column 500027: unexpected "\)"/);
    assert.ok(text.length < 400, `${text.length} characters`);
  });
});
