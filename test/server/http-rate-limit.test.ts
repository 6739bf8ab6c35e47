// runtime.http.rate_limit over real HTTP: 429 with Retry-After past the burst, per principal; /health and /v1/ready exempt.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const KEY_A = 'rate-key-a';
const KEY_B = 'rate-key-b';
let open: TestServer;
let keyed: TestServer;

before(async () => {
  // One request per 20 s: no token comes back while a test runs, so the counts are exact.
  const rate_limit = { enabled: true, requests_per_second: 0.05, burst: 5 };
  open = await startTestServer([], { runtime: { http: { rate_limit } } });
  keyed = await startTestServer([], {
    runtime: { http: { rate_limit }, auth: { 'api-key': { keys: [KEY_A, KEY_B] } } },
  });
});
after(async () => {
  await open.close();
  await keyed.close();
});

async function burst(url: string, n: number, headers: Record<string, string> = {}) {
  const answers = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(url, { method: 'POST', body: 'SELECT 1 AS one', headers });
    answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() });
  }
  return answers;
}

describe('rate limit', () => {
  it('answers 429 with Retry-After in whole seconds past the burst (per client address without auth)', async () => {
    const answers = await burst(open.sql, 8);
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 429, 429, 429],
    );
    for (const a of answers.slice(5)) {
      assert.equal(a.text, 'Too Many Requests');
      const seconds = Number(a.retryAfter);
      assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 20, `Retry-After: ${a.retryAfter}`);
    }
    // Every route but /health and /v1/ready is limited, 404s too.
    assert.equal((await fetch(`${open.base}/nowhere`)).status, 429);
  });

  it('never limits /health and /v1/ready', async () => {
    for (let i = 0; i < 20; i++) {
      assert.equal((await fetch(`${open.base}/health`)).status, 200);
      assert.equal((await fetch(`${open.base}/v1/ready`)).status, 200);
    }
  });

  it('keeps one bucket per API key, and counts failed keys against the address', async () => {
    const a = await burst(keyed.sql, 6, { 'X-API-Key': KEY_A });
    assert.deepEqual(
      a.map((x) => x.status),
      [200, 200, 200, 200, 200, 429],
    );
    const b = await burst(keyed.sql, 5, { Authorization: `Bearer ${KEY_B}` });
    assert.deepEqual(
      b.map((x) => x.status),
      [200, 200, 200, 200, 200],
    );
    const guesses = await burst(keyed.sql, 7, { 'X-API-Key': 'guess' });
    assert.deepEqual(
      guesses.map((x) => x.status),
      [401, 401, 401, 401, 401, 429, 429],
    );
  });
});
