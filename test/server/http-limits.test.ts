// Query limits over real HTTP: time-outs (a runaway join stops; a backtracking regex's worker is terminated and
// replaced), the memory guard, admission (queue full -> 503 + Retry-After), runtime-query-id on every answer.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { type Answer, post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const REGEX = "SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' ~ '^(a+)+$' AS m";
const CROSS = 'SELECT count(*) AS n FROM big a, big b';
/** Keeps 100,000 distinct strings of ~1 MB each on the worker's heap (a hash set of ~100 GB if it could). */
const HUGE_DISTINCT = 'SELECT count(DISTINCT repeat(label, 100000)) AS n FROM big';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let file: string;
let limited: TestServer;

before(async () => {
  file = await writeBig(join(await makeTempDir(), 'big.parquet'), 100_000);
  limited = await startTestServer([{ name: 'big', from: `file:${file}`, acceleration: { enabled: true } }], {
    runtime: {
      caching: { sql_results: { enabled: false } },
      query: { timeout: '1s', kill_grace: '1s' },
    },
  });
});
after(() => limited.close());

/**
 * Runs small queries one after another while `busy` is pending (then three more); returns how many were answered
 * while it was pending. (Not their times: the machine running the suite may be loaded many times over.)
 */
async function smallWhile(server: TestServer, busy: Promise<unknown>): Promise<number> {
  let done = false;
  void busy.finally(() => {
    done = true;
  });
  let during = 0;
  for (let i = 0; !done || i < 3; i++) {
    const res = await post(server.sql, `SELECT ${i} AS i`);
    assert.equal(res.status, 200, res.text);
    if (!done) during++;
    await new Promise((r) => setTimeout(r, 20));
  }
  return during;
}

async function restartsReach(server: TestServer, n: number): Promise<void> {
  for (let i = 0; i < 200 && (server.server.pool()?.workerRestarts ?? 0) < n; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(server.server.pool()?.workerRestarts, n);
}

describe('runtime.query.timeout', () => {
  it('stops a runaway cross join with 504 naming the limit while small queries keep answering', async () => {
    const restarts = limited.server.pool()?.workerRestarts;
    const started = performance.now();
    const runaway = post(limited.sql, CROSS);
    const during = await smallWhile(limited, runaway);
    const res = await runaway;
    assert.equal(res.status, 504, res.text);
    assert.equal(res.text, 'query exceeded the time-out (runtime.query.timeout=1s)');
    assert.ok(performance.now() - started < 3000);
    assert.ok(during >= 2, `only ${during} small queries were answered meanwhile`);
    // The join checks its cancel flag between batches: it stops without its worker being terminated.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(limited.server.pool()?.workerRestarts, restarts);
  });

  it('terminates and replaces the worker of a backtracking regex, which never checks its flag', async () => {
    const restarts = limited.server.pool()?.workerRestarts ?? 0;
    const stuck = post(limited.sql, REGEX);
    const during = await smallWhile(limited, stuck);
    const res = await stuck;
    assert.equal(res.status, 504, res.text);
    assert.match(res.text, /runtime\.query\.timeout=1s/);
    assert.ok(during >= 2, `only ${during} small queries were answered meanwhile`);
    await restartsReach(limited, restarts + 1);
    // Both workers serve again.
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(limited.sql, `SELECT ${i} AS i`)));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
  });
});

describe('runtime.query.memory_limit', () => {
  it('answers 400 naming the limit when a query exhausts its worker heap; the process and other queries live on', async () => {
    const guarded = await startTestServer([{ name: 'big', from: `file:${file}`, acceleration: { enabled: true } }], {
      runtime: { caching: { sql_results: { enabled: false } }, query: { timeout: '60s', memory_limit: '128MiB' } },
    });
    try {
      const huge = post(guarded.sql, HUGE_DISTINCT);
      const during = await smallWhile(guarded, huge);
      const res = await huge;
      assert.equal(res.status, 400, res.text);
      assert.equal(res.text, 'query exceeded the memory limit (runtime.query.memory_limit=128MiB)');
      assert.ok(during >= 2, `only ${during} small queries were answered meanwhile`);
      await restartsReach(guarded, 1);
      assert.equal((await post(guarded.sql, 'SELECT count(*) AS n FROM big')).text, '[{"n":100000}]');
    } finally {
      await guarded.close();
    }
  });
});

describe('runtime-query-id', () => {
  it('is on every /v1/sql answer, a fresh uuid each time', async () => {
    const answers: Answer[] = [
      await post(limited.sql, 'SELECT 1 AS x'),
      await post(limited.sql, 'SELECT nope'),
      await post(limited.sql, '{"sql": 1}', { 'content-type': 'application/json' }),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 400, 400],
    );
    const ids = answers.map((a) => a.headers.get('runtime-query-id') ?? '');
    for (const id of ids) assert.match(id, UUID);
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('admission', () => {
  it('answers 503 with Retry-After when max_concurrent are running and max_queued wait', async () => {
    const one = await startTestServer([{ name: 'big', from: `file:${file}`, acceleration: { enabled: true } }], {
      workers: 1,
      runtime: {
        caching: { sql_results: { enabled: false } },
        query: { timeout: '1s', kill_grace: '300ms', max_concurrent: 1, max_queued: 1 },
      },
    });
    try {
      const running = post(one.sql, CROSS);
      await new Promise((r) => setTimeout(r, 100));
      const queued = post(one.sql, 'SELECT 1 AS x');
      await new Promise((r) => setTimeout(r, 50));
      const refused = await post(one.sql, 'SELECT 2 AS x');
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.match(refused.text, /max_concurrent/);
      assert.equal((await running).status, 504);
      // The queued query entered once the running one left.
      assert.deepEqual([(await queued).status, (await queued).text], [200, '[{"x":1}]']);
      assert.equal((await post(one.sql, 'SELECT 3 AS x')).status, 200);
    } finally {
      await one.close();
    }
  });
});
