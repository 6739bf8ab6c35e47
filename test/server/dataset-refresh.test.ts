// Refresh of accelerated datasets over real HTTP: by interval, on demand, failing and recovering, under 32 clients, cache invalidation.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor, writeVersion } from '../helpers/dataset-files.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const COUNT = 'SELECT count(*) AS n, count(DISTINCT version) AS d, min(version) AS v FROM t';
const NO_CACHE = { caching: { sql_results: { enabled: false } } };
const RETRY = { initialMs: 50, maxMs: 200 };

async function counts(srv: TestServer): Promise<{ n: number; d: number; v: number }> {
  const res = await post(srv.sql, COUNT);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text)[0];
}

async function serveT(
  path: string,
  acceleration: Record<string, unknown>,
  runtime: Record<string, unknown> = NO_CACHE,
) {
  return startTestServer([{ name: 't', from: `file:${path}`, acceleration: { enabled: true, ...acceleration } }], {
    runtime,
    datasetRetry: RETRY,
  });
}

describe('dataset refresh', () => {
  it('refreshes by interval: the rewritten file shows up', async () => {
    const path = await writeVersion(join(await makeTempDir(), 't.parquet'), 1, 4);
    const srv = await serveT(path, { refresh_check_interval: '200ms' });
    try {
      assert.deepEqual(await counts(srv), { n: 4, d: 1, v: 1 });
      const version = srv.server.catalogVersion;
      await writeVersion(path, 2, 6);
      await waitFor(async () => (await counts(srv)).v === 2, 'the scheduled refresh');
      assert.deepEqual(await counts(srv), { n: 6, d: 1, v: 2 });
      assert.ok(srv.server.catalogVersion > version);
    } finally {
      await srv.close();
    }
  });

  it('refreshes on demand (matched case-insensitively), with a mode and a jitter override', async () => {
    const path = await writeVersion(join(await makeTempDir(), 't.parquet'), 1, 4);
    const srv = await serveT(path, {});
    try {
      await writeVersion(path, 2, 5);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(await counts(srv), { n: 4, d: 1, v: 1 }, 'no interval: nothing refreshes by itself');
      assert.equal(await srv.server.datasets.refresh('T'), 't');
      await waitFor(async () => (await counts(srv)).v === 2, 'the on-demand refresh');
      await writeVersion(path, 3, 7);
      assert.equal(await srv.server.datasets.refresh('t', { refreshMode: 'full', jitterMaxMs: 100 }), 't');
      await waitFor(async () => (await counts(srv)).v === 3, 'the jittered refresh');
      assert.deepEqual(await counts(srv), { n: 7, d: 1, v: 3 });
      assert.equal(srv.server.datasets.list()[0]?.status, 'Ready');
    } finally {
      await srv.close();
    }
  });

  it('a failed refresh keeps the old data serving with status Error, and the retry recovers', async () => {
    const path = await writeVersion(join(await makeTempDir(), 't.parquet'), 1, 4);
    const srv = await serveT(path, { refresh_retry_max_attempts: 100 });
    try {
      await rm(path);
      await srv.server.datasets.refresh('t');
      await waitFor(() => srv.server.datasets.list()[0]?.status === 'Error', 'the refresh to fail');
      const state = srv.server.datasets.list()[0];
      assert.deepEqual(state?.error, { category: 'dataset', type: 'source', code: 'dataset.source' });
      assert.match(
        state?.errorMessage ?? '',
        /^Dataset t \(file\): refresh failed; serving the data loaded at \S+Z: no such file or folder: .*t\.parquet$/,
      );
      assert.deepEqual(await counts(srv), { n: 4, d: 1, v: 1 }, 'the old data keeps serving');

      await writeFile(path, 'corrupted: not Parquet');
      await waitFor(
        () => /cannot (load|read)/.test(srv.server.datasets.list()[0]?.errorMessage ?? ''),
        'the next retry',
      );
      assert.deepEqual(await counts(srv), { n: 4, d: 1, v: 1 });

      await writeVersion(path, 2, 3);
      await waitFor(() => srv.server.datasets.list()[0]?.status === 'Ready', 'a retry to succeed');
      assert.equal(srv.server.datasets.list()[0]?.errorMessage, null);
      assert.deepEqual(await counts(srv), { n: 3, d: 1, v: 2 });
    } finally {
      await srv.close();
    }
  });

  it('32 clients querying through 20 refreshes: no error, never mixed rows, never an older version', async () => {
    const rows = 20_000;
    const path = await writeVersion(join(await makeTempDir(), 't.parquet'), 1, rows);
    const srv = await serveT(path, {});
    let done = false;
    const answers: number[] = [];
    const client = async () => {
      let last = 0;
      while (!done) {
        const { n, d, v } = await counts(srv);
        assert.deepEqual({ n, d }, { n: rows, d: 1 }, `version ${v}: every row of one version`);
        assert.ok(v >= last, `a client saw version ${v} after ${last}`);
        last = v;
        answers.push(v);
      }
    };
    try {
      const clients = Array.from({ length: 32 }, client);
      for (let version = 2; version <= 21; version++) {
        await writeVersion(path, version, rows);
        await srv.server.datasets.refresh('t');
        await waitFor(async () => (await counts(srv)).v === version, `version ${version}`);
      }
      done = true;
      await Promise.all(clients);
      assert.equal(new Set(answers).size, 21, 'the clients saw every version');
      assert.ok(answers.length > 200, `${answers.length} answers`);
    } finally {
      done = true;
      await srv.close();
    }
  });

  it('drops cached results of the refreshed dataset: a query cached before sees the new data after', async () => {
    const path = await writeVersion(join(await makeTempDir(), 't.parquet'), 1, 4);
    const cache = { caching: { sql_results: { enabled: true, item_ttl: '10m' } } };
    const srv = await serveT(path, {}, cache);
    try {
      const first = await post(srv.sql, COUNT);
      const cached = await post(srv.sql, COUNT);
      assert.equal(cached.text, first.text);
      assert.equal(cached.headers.get('x-cache'), 'Hit from spiceai');
      await writeVersion(path, 2, 9);
      await srv.server.datasets.refresh('t');
      await waitFor(async () => (await counts(srv)).v === 2, 'the refreshed data past the cache', 5000);
      assert.deepEqual(await counts(srv), { n: 9, d: 1, v: 2 });
    } finally {
      await srv.close();
    }
  });
});
