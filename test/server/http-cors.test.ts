// runtime.cors over real HTTP: off by default (no Access-Control-Allow-Origin, simple cross-origin POSTs refused),
// and on: preflights answered and allowed origins echoed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let off: TestServer;
let listed: TestServer;
let any: TestServer;

before(async () => {
  off = await startTestServer([]);
  listed = await startTestServer([], {
    runtime: { cors: { enabled: true, allowed_origins: ['https://app.example', 'http://localhost:3000'] } },
  });
  any = await startTestServer([], { runtime: { cors: { enabled: true } } });
});
after(async () => {
  await Promise.all([off.close(), listed.close(), any.close()]);
});

const EVIL = 'https://evil.example';

async function sql(srv: TestServer, headers: Record<string, string>) {
  const res = await fetch(srv.sql, { method: 'POST', body: 'SELECT 1 AS one', headers });
  return { status: res.status, acao: res.headers.get('access-control-allow-origin'), text: await res.text() };
}

async function preflight(srv: TestServer, origin: string) {
  const headers = {
    Origin: origin,
    'Access-Control-Request-Method': 'POST',
    'Access-Control-Request-Headers': 'x-api-key',
  };
  const res = await fetch(srv.sql, { method: 'OPTIONS', headers });
  await res.text();
  return res;
}

describe('CORS off (the default)', () => {
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ]) {
    it(`refuses a cross-origin POST with Content-Type ${type} (403, the SQL never runs)`, async () => {
      const res = await sql(off, { Origin: EVIL, 'Content-Type': type });
      assert.equal(res.status, 403);
      assert.equal(res.acao, null);
      assert.match(res.text, /runtime\.cors/);
    });
  }

  it('answers a POST that a browser would have preflighted, without Access-Control-Allow-Origin', async () => {
    const res = await sql(off, { Origin: EVIL, 'Content-Type': 'application/json' });
    assert.deepEqual([res.status, res.acao], [400, null]);
  });

  it('leaves requests without Origin alone', async () => {
    assert.deepEqual(await sql(off, { 'Content-Type': 'text/plain' }), {
      status: 200,
      acao: null,
      text: '[{"one":1}]',
    });
  });

  it('does not answer preflights', async () => {
    const res = await preflight(off, EVIL);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});

describe('CORS on', () => {
  it('answers a preflight from an allowed origin', async () => {
    const res = await preflight(listed, 'https://app.example');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /X-API-Key/i);
    assert.equal(res.headers.get('vary'), 'Origin');
  });

  it("echoes an allowed origin on answers, errors included, and refuses another origin's simple POST", async () => {
    const ok = await sql(listed, { Origin: 'http://localhost:3000', 'Content-Type': 'text/plain' });
    assert.deepEqual(ok, { status: 200, acao: 'http://localhost:3000', text: '[{"one":1}]' });
    const bad = await fetch(listed.sql, { method: 'POST', body: 'SELEC', headers: { Origin: 'https://app.example' } });
    assert.deepEqual([bad.status, bad.headers.get('access-control-allow-origin')], [400, 'https://app.example']);
    const evil = await sql(listed, { Origin: EVIL, 'Content-Type': 'text/plain' });
    assert.deepEqual([evil.status, evil.acao], [403, null]);
    assert.equal((await preflight(listed, EVIL)).status, 405);
  });

  it('with the default allowed_origins (*), allows any origin', async () => {
    const res = await sql(any, { Origin: EVIL, 'Content-Type': 'text/plain' });
    assert.deepEqual(res, { status: 200, acao: '*', text: '[{"one":1}]' });
    const health = await fetch(`${any.base}/health`, { headers: { Origin: EVIL } });
    assert.equal(health.headers.get('access-control-allow-origin'), '*');
    assert.equal((await preflight(any, EVIL)).status, 204);
  });
});
