// POST /v1/sql body forms and error answers over real HTTP, plus /health, /v1/ready, 404 and 405.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { get, post, postChunked } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const MAX_BODY = 4096;
let srv: TestServer;

before(async () => {
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }], { maxBodyBytes: MAX_BODY });
});
after(() => srv.close());

const JSON_TYPE = { 'content-type': 'application/json' };
const postJson = (body: unknown) => post(srv.sql, typeof body === 'string' ? body : JSON.stringify(body), JSON_TYPE);

describe('body forms', () => {
  it('plain SQL without a Content-Type', async () => {
    const res = await post(srv.sql, 'SELECT id FROM people WHERE id = 2');
    assert.deepEqual([res.status, res.text], [200, '[{"id":2}]']);
  });

  for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/sql', 'application/octet-stream']) {
    it(`plain SQL with Content-Type ${type}`, async () => {
      const res = await post(srv.sql, 'SELECT name FROM people WHERE id = 1', { 'content-type': type });
      assert.deepEqual([res.status, res.text], [200, '[{"name":"Alice"}]']);
    });
  }

  it('JSON without parameters', async () => {
    assert.equal((await postJson({ sql: 'SELECT 40 + 2 AS n' })).text, '[{"n":42}]');
  });

  it('JSON with positional parameters ($1, $2)', async () => {
    const res = await postJson({
      sql: 'SELECT name FROM people WHERE id = $1 OR id = $2 ORDER BY id',
      parameters: [2, 4],
    });
    assert.deepEqual([res.status, res.text], [200, '[{"name":"Bob"},{"name":"Zoë"}]']);
  });

  it('JSON with named parameters (:name)', async () => {
    const res = await postJson({ sql: 'SELECT :foo + 1 AS the_answer', parameters: { foo: 41 } });
    assert.deepEqual([res.status, res.text], [200, '[{"the_answer":42}]']);
  });

  it('JSON parameters of every scalar type pass through', async () => {
    const res = await postJson({
      sql: 'SELECT $1 AS a, $2 AS b, $3 AS c, $4 AS d',
      parameters: [null, true, 2.5, 'it\'s "x"'],
    });
    assert.deepEqual(JSON.parse(res.text), [{ a: null, b: true, c: 2.5, d: 'it\'s "x"' }]);
  });

  it('JSON with a charset parameter in the Content-Type', async () => {
    const res = await post(srv.sql, JSON.stringify({ sql: 'SELECT $1 AS s', parameters: ['日本'] }), {
      'content-type': 'application/json; charset=utf-8',
    });
    assert.deepEqual([res.status, res.text], [200, '[{"s":"日本"}]']);
  });

  it('UTF-8 SQL text', async () => {
    assert.equal((await post(srv.sql, "SELECT id FROM people WHERE name = '日本'")).text, '[{"id":5}]');
  });
});

describe('errors of /v1/sql', () => {
  const expect400 = async (
    res: Promise<{ status: number; contentType: string | null; text: string }>,
    message: RegExp | string,
  ) => {
    const r = await res;
    assert.equal(r.status, 400, r.text);
    assert.equal(r.contentType, 'text/plain; charset=utf-8');
    if (typeof message === 'string') assert.equal(r.text, message);
    else assert.match(r.text, message);
  };

  it('a parse error names line and column', async () => {
    await expect400(post(srv.sql, 'SELECT 1\nFROM WHERE'), /line 2, column \d+/);
    await expect400(post(srv.sql, 'SELEC 1'), /line 1, column \d+/);
  });

  it('an unknown table is named', () => expect400(post(srv.sql, 'SELECT * FROM nowhere'), /nowhere/));

  it('an unknown column is named', () => expect400(post(srv.sql, 'SELECT shoe_size FROM people'), /shoe_size/));

  it('JSON without sql', () => expect400(postJson({ parameters: [] }), 'Invalid JSON: missing field sql'));

  it('malformed JSON', () => expect400(postJson('{"sql": "SELECT 1",'), /^Invalid JSON: .+/));

  it('nested parameter values', async () => {
    const nested = 'Invalid JSON: Nested arrays or objects are not supported as parameter values';
    await expect400(postJson({ sql: 'SELECT $1', parameters: [[1, 2]] }), nested);
    await expect400(postJson({ sql: 'SELECT :a', parameters: { a: { b: 1 } } }), nested);
  });

  it('parameters that are neither array nor object', () =>
    expect400(
      postJson({ sql: 'SELECT 1', parameters: 'x' }),
      'Invalid JSON: Parameters must be a JSON array or an object',
    ));

  it('invalid UTF-8 in a plain body', () =>
    expect400(
      post(srv.sql, new Uint8Array([0x53, 0x45, 0xc3, 0x28])),
      'invalid utf-8 sequence of 1 bytes from index 2',
    ));

  it('invalid UTF-8 in a JSON body', () =>
    expect400(
      post(srv.sql, new Uint8Array([0x7b, 0xff, 0x7d]), JSON_TYPE),
      'invalid utf-8 sequence of 1 bytes from index 1',
    ));

  it('a body over the limit gets 413', async () => {
    const res = await post(srv.sql, `SELECT '${'x'.repeat(MAX_BODY)}'`);
    assert.equal(res.status, 413);
    assert.match(res.text, /exceeds 4096 bytes/);
  });

  it('a chunked body that grows over the limit gets 413', async () => {
    const res = await postChunked(srv.sql, ["SELECT '", 'x'.repeat(MAX_BODY / 2), 'x'.repeat(MAX_BODY / 2), "'"]);
    assert.equal(res.status, 413);
  });

  it('a chunked body under the limit is read whole', async () => {
    const res = await postChunked(srv.sql, ['SELECT 1', ' AS ', 'one']);
    assert.deepEqual([res.status, res.text], [200, '[{"one":1}]']);
  });

  it('a body at the limit is accepted', async () => {
    const sql = 'SELECT 1 AS one';
    const res = await post(srv.sql, sql + ' '.repeat(MAX_BODY - sql.length));
    assert.deepEqual([res.status, res.text], [200, '[{"one":1}]']);
  });

  it('keeps serving after errors', async () => {
    assert.equal((await post(srv.sql, 'SELECT count(*) AS n FROM people')).text, '[{"n":5}]');
  });
});

describe('other routes', () => {
  it('GET /health answers ok', async () => {
    const res = await get(`${srv.base}/health`);
    assert.deepEqual([res.status, res.text, res.contentType], [200, 'ok\n', 'text/plain; charset=utf-8']);
  });

  it('GET /v1/ready answers ready once loaded', async () => {
    const res = await get(`${srv.base}/v1/ready`);
    assert.deepEqual([res.status, res.text], [200, 'ready']);
  });

  it('unknown routes get 404', async () => {
    for (const path of ['/', '/v1/nope', '/v2/sql', '/v1/sql/extra']) {
      assert.equal((await get(`${srv.base}${path}`)).status, 404, path);
    }
    assert.equal((await post(`${srv.base}/v1/query`, 'SELECT 1')).status, 404);
  });

  it('a known path with the wrong method gets 405 and Allow', async () => {
    const res = await get(srv.sql);
    assert.deepEqual([res.status, res.headers.get('allow')], [405, 'POST']);
    assert.equal((await post(`${srv.base}/health`, '')).status, 405);
  });
});
