// Abandoned queries stop: a client that disconnects while its query waits in the pool's queue or runs on an
// in-memory table frees the worker for the next client instead of keeping it busy for nobody.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ROWS = 400_000;
const SLOW = 'SELECT label, count(*) AS n FROM big GROUP BY label ORDER BY n DESC, label LIMIT 3';
const ABANDONED = 12;
let single: TestServer;

before(async () => {
  const file = await writeBig(join(await makeTempDir(), 'big.parquet'), ROWS);
  // One worker, results cache off: every request runs, one at a time.
  single = await startTestServer([{ name: 'big', from: `file:${file}`, acceleration: { enabled: true } }], {
    workers: 1,
    runtime: { caching: { sql_results: { enabled: false } } },
  });
});
after(() => single.close());

/** Sends `sql` and disconnects after `ms`, before any answer. */
function abandon(url: string, sql: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'content-length': Buffer.byteLength(sql) } });
    req.on('error', () => resolve());
    req.end(sql);
    setTimeout(() => {
      req.destroy();
      resolve();
    }, ms);
  });
}

async function timed(sql: string): Promise<number> {
  const started = performance.now();
  const res = await post(single.sql, sql);
  assert.equal(res.status, 200, res.text);
  return performance.now() - started;
}

describe('client disconnect', () => {
  it('skips queued queries whose clients left and stops the running one', { timeout: 120_000 }, async () => {
    await timed(SLOW);
    const one = Math.min(await timed(SLOW), await timed(SLOW));
    // Twelve slow queries queue behind each other on the only worker; their clients leave at once.
    await Promise.all(Array.from({ length: ABANDONED }, () => abandon(single.sql, SLOW, 20)));
    const next = await timed('SELECT 1 AS v');
    // Run to the end, the abandoned queries would hold the worker for about ABANDONED x `one`.
    assert.ok(
      next < (ABANDONED / 3) * one + 200,
      `SELECT 1 took ${next.toFixed(0)} ms; one slow query ${one.toFixed(0)} ms`,
    );
  });
});
