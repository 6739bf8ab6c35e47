// API keys over real HTTP: both header forms on every route, 401 without or with a wrong key, 403 JSON for a
// read-only key's write, /health and /v1/ready open, and the key never in a log line or an answer.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const RO_KEY = 'ro-k3y-Alpha-0001';
const RW_KEY = 'rw-k3y-Bravo-0002';
const ENV_KEY = 'env-k3y-Charlie-0003';
const KEYS = [RO_KEY, RW_KEY, ENV_KEY];
let srv: TestServer;
const logLines: string[] = [];
const bodies: string[] = [];

before(async () => {
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }], {
    runtime: { auth: { 'api-key': { enabled: true, keys: [`${RO_KEY}:ro`, `${RW_KEY}:rw`, '${env:FLOE_AUTH_KEY}'] } } },
    env: { FLOE_AUTH_KEY: ENV_KEY },
    log: (line) => logLines.push(line),
  });
});
after(() => srv.close());

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

async function call(path: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const res = await fetch(`${srv.base}${path}`, { method, headers, body });
  const text = await res.text();
  bodies.push(text, JSON.stringify([...res.headers]));
  return { status: res.status, headers: res.headers, text };
}

const FORMS: [string, (key: string) => Record<string, string>][] = [
  ['X-API-Key', (key) => ({ 'X-API-Key': key })],
  ['Authorization: Bearer', (key) => ({ Authorization: `Bearer ${key}` })],
];

// Every route floe has, and the answers a valid key gets there.
const ROUTES: [string, string, string | undefined, number][] = [
  ['/v1/sql', 'POST', 'SELECT name FROM people WHERE id = 1', 200],
  ['/v1/sql', 'GET', undefined, 405],
  ['/v1/nowhere', 'GET', undefined, 404],
  ['/v1/datasets', 'GET', undefined, 200],
  ['/v1/datasets', 'POST', '{}', 405],
  ['/v1/datasets/people/acceleration/refresh', 'GET', undefined, 405],
];

describe('API keys', () => {
  for (const [path, method, body, expected] of ROUTES) {
    it(`${method} ${path}: 401 without a key, with a wrong key, with another scheme`, async () => {
      const wrongs: Record<string, string>[] = [
        {},
        { 'X-API-Key': 'nope' },
        { Authorization: 'Bearer nope' },
        { 'X-API-Key': `${RO_KEY}x` },
        { Authorization: `Basic ${Buffer.from(`u:${RO_KEY}`).toString('base64')}` },
        { Authorization: RO_KEY },
      ];
      for (const headers of wrongs) {
        const res = await call(path, method, headers, body);
        assert.deepEqual([res.status, res.text], [401, 'Unauthorized'], JSON.stringify(headers));
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      }
    });

    for (const [form, header] of FORMS) {
      it(`${method} ${path}: ${expected} with a valid key in ${form}`, async () => {
        for (const key of KEYS) {
          const res = await call(path, method, header(key), body);
          assert.equal(res.status, expected, `${key}: ${res.text}`);
          if (expected === 200 && path === '/v1/sql') assert.equal(res.text, '[{"name":"Alice"}]');
          if (expected === 200 && path === '/v1/datasets') assert.equal(JSON.parse(res.text)[0].name, 'people');
        }
      });
    }
  }

  it('accepts a lower-case bearer scheme and spaces around the key', async () => {
    const res = await call('/v1/sql', 'POST', { authorization: `bearer   ${RO_KEY} ` }, 'SELECT 1 AS one');
    assert.deepEqual([res.status, res.text], [200, '[{"one":1}]']);
  });

  it('/health and /v1/ready answer without a key', async () => {
    assert.deepEqual(
      [(await call('/health', 'GET', {})).text, (await call('/v1/ready', 'GET', {})).text],
      ['ok\n', 'ready'],
    );
    assert.equal((await call('/health', 'POST', {})).status, 405);
  });

  for (const [form, header] of FORMS) {
    it(`a read-only key's write (${form}) gets 403 JSON; a read-write key reaches the engine`, async () => {
      for (const sql of ['INSERT INTO people VALUES (9)', 'CREATE TABLE t (a int)', 'SELECT 1 AS a INTO t2']) {
        for (const key of [RO_KEY, ENV_KEY]) {
          const res = await call('/v1/sql', 'POST', header(key), sql);
          assert.equal(res.status, 403, sql);
          assert.equal(res.headers.get('content-type'), 'application/json');
          assert.deepEqual(JSON.parse(res.text), { message: 'API key does not allow write access' });
        }
      }
      const rw = await call('/v1/sql', 'POST', header(RW_KEY), 'INSERT INTO people VALUES (9)');
      assert.equal(rw.status, 400);
      assert.match(rw.text, /not supported/);
    });
  }

  it('a read-only key still gets 400 for a bad query and runs set operations', async () => {
    const bad = await call('/v1/sql', 'POST', { 'X-API-Key': RO_KEY }, 'SELEC 1');
    assert.equal(bad.status, 400);
    const union = await call('/v1/sql', 'POST', { 'X-API-Key': RO_KEY }, 'SELECT 1 AS a UNION SELECT 2 ORDER BY a');
    assert.deepEqual([union.status, union.text], [200, '[{"a":1},{"a":2}]']);
  });

  it('never puts a key in a log line, an answer body or a header', () => {
    assert.ok(bodies.length > 50, `only ${bodies.length} answers seen`);
    for (const text of [...bodies, ...logLines]) for (const key of KEYS) assert.ok(!text.includes(key), text);
  });
});
