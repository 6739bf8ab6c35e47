// S3 failures through the whole runtime over real HTTP (s3rver on loopback): refused credentials, an unreachable
// endpoint that comes back, and S3 going away while an accelerated dataset refreshes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from '../helpers/dataset-files.js';
import { get, post } from '../helpers/http.js';
import {
  FAST_RETRY,
  listed,
  listedDatasets,
  NO_CACHE,
  phaseTimer,
  putVersion,
  versionCounts,
} from '../helpers/s3-runtime.js';
import { startS3Server } from '../helpers/s3-server.js';
import { startSilentServer } from '../helpers/silent-server.js';
import { startTestServer } from '../helpers/test-server.js';

const WRONG_KEY = 'AKIA-WRONG-KEY-4f1c';
const WRONG_SECRET = 'wrong-secret-9d2e7b';

/** Everything written to the process's stderr until the returned function is called (which returns it). */
function captureStderr(): () => string {
  const seen: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    seen.push(String(chunk));
    return (write as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  return () => {
    process.stderr.write = write;
    return seen.join('');
  };
}

describe('S3 datasets in the runtime: failures', () => {
  it('refused credentials: Error dataset.auth naming the dataset and connector, never the key or secret; the others serve', async (t) => {
    const phase = phaseTimer(t);
    const s3 = await startS3Server(['data']);
    await putVersion(s3, 's3://data/t.parquet', 1, 5);
    phase('s3rver started, object uploaded');
    const logs: string[] = [];
    const stderr = captureStderr();
    const wrongKey = { ...s3.params, s3_key: WRONG_KEY, s3_secret: WRONG_SECRET };
    const wrongSecret = { ...s3.params, s3_secret: WRONG_SECRET };
    const srv = await startTestServer(
      [
        { name: 'bad_key', from: 's3://data/t.parquet', params: wrongKey },
        { name: 'bad_acc', from: 's3://data/t.parquet', params: wrongKey, acceleration: { enabled: true } },
        { name: 'bad_prefix', from: 's3://data/', params: wrongKey },
        { name: 'bad_secret', from: 's3://data/', params: wrongSecret, acceleration: { enabled: true } },
        { name: 'good', from: 's3://data/t.parquet', params: s3.params, acceleration: { enabled: true } },
      ],
      { datasetRetry: FAST_RETRY, log: (l) => logs.push(l), runtime: NO_CACHE },
    );
    phase('floe started (first load attempts made)');
    const bodies: string[] = [];
    try {
      const ready = await get(`${srv.base}/v1/ready`);
      assert.equal(ready.status, 200, ready.text);
      const all = await listedDatasets(srv);
      assert.equal(all.get('good')?.status, 'Ready');
      // A HEAD's 403 (an object) names no S3 error, a listing's (a prefix) does.
      const HEAD_403 = 'HTTP 403 (check s3_key, s3_secret and the bucket policy)';
      const reasons: [string, string][] = [
        ['bad_key', `s3://data/t.parquet: ${HEAD_403}`],
        ['bad_acc', `s3://data/t.parquet: ${HEAD_403}`],
        ['bad_prefix', 's3://data/: InvalidAccessKeyId'],
        ['bad_secret', 's3://data/: SignatureDoesNotMatch'],
      ];
      for (const [name, reason] of reasons) {
        const d = all.get(name);
        assert.equal(d?.status, 'Error', name);
        assert.deepEqual(d?.error, { category: 'dataset', type: 'auth', code: 'dataset.auth' });
        assert.equal(d?.error_message, `Dataset ${name} (s3): s3 connector: access denied by ${reason}`);
        const res = await post(srv.sql, `SELECT count(*) AS n FROM ${name}`);
        assert.equal(res.status, 400, res.text);
        assert.ok(res.text.includes(d?.error_message ?? '?'), res.text);
        bodies.push(res.text);
      }
      assert.deepEqual(await versionCounts(srv, 'good'), { n: 5, lo: 1, hi: 1 });
      for (const query of ['', '?status=true', '?format=csv', '?status=true&format=csv']) {
        const res = await get(`${srv.base}/v1/datasets${query}`);
        assert.equal(res.status, 200);
        assert.ok(!res.text.includes('params') && !res.text.includes(s3.endpoint), res.text);
        bodies.push(res.text);
      }
      phase('checks: statuses, 400s, good dataset, four list bodies');
      // A retry or two fail the same way (and log it).
      await waitFor(
        () => logs.filter((l) => l.includes('bad_key') && l.includes('retrying in')).length >= 2,
        'retries',
      );
    } finally {
      await srv.close();
      await s3.dispose();
      phase('closed');
      const printed = stderr();
      for (const text of [...bodies, ...logs, printed]) {
        for (const secret of [WRONG_KEY, WRONG_SECRET, s3.params.s3_secret as string]) {
          assert.ok(!text.includes(secret), `'${secret}' in: ${text}`);
        }
      }
    }
  });

  it('an unreachable endpoint: Error dataset.connection, then the retry loads it once S3 answers on that port', async (t) => {
    const phase = phaseTimer(t);
    const s3 = await startS3Server(['data']);
    await putVersion(s3, 's3://data/t.parquet', 3, 7);
    await s3.stop();
    phase('s3rver started, object uploaded, s3rver stopped');
    const srv = await startTestServer(
      [
        { name: 'files', from: 's3://data/t.parquet', params: s3.params },
        { name: 'acc', from: 's3://data/t.parquet', params: s3.params, acceleration: { enabled: true } },
      ],
      { datasetRetry: FAST_RETRY, runtime: NO_CACHE },
    );
    phase('floe started (first load attempts failed)');
    try {
      assert.equal((await get(`${srv.base}/v1/ready`)).status, 200);
      for (const name of ['files', 'acc']) {
        const d = await listed(srv, name);
        assert.equal(d.status, 'Error', name);
        assert.deepEqual(d.error, { category: 'dataset', type: 'connection', code: 'dataset.connection' });
        const reach = `cannot reach ${s3.endpoint} for s3://data/t.parquet`;
        assert.match(d.error_message ?? '', new RegExp(`^Dataset ${name} \\(s3\\): s3 connector: ${reach}`));
        const res = await post(srv.sql, `SELECT count(*) AS n FROM ${name}`);
        assert.equal(res.status, 400, res.text);
        assert.ok(res.text.includes(reach), res.text);
      }
      phase('checks: statuses, 400s');
      await s3.start();
      phase('s3rver started again');
      await waitFor(async () => {
        const all = await listedDatasets(srv);
        return all.get('files')?.status === 'Ready' && all.get('acc')?.status === 'Ready';
      }, 'both datasets to load');
      phase('retries loaded both datasets');
      assert.deepEqual(await versionCounts(srv, 'files'), { n: 7, lo: 3, hi: 3 });
      assert.deepEqual(await versionCounts(srv, 'acc'), { n: 7, lo: 3, hi: 3 });
      assert.equal((await listed(srv, 'acc')).error_message, null);
    } finally {
      await srv.close();
      await s3.dispose();
      phase('closed');
    }
  });

  it('an endpoint that accepts and never answers: Error dataset.connection after client_timeout; ready, and the others serve', async (t) => {
    const phase = phaseTimer(t);
    const s3 = await startS3Server(['data']);
    await putVersion(s3, 's3://data/t.parquet', 1, 3);
    const silent = await startSilentServer();
    const hung = { ...s3.params, s3_endpoint: silent.endpoint, client_timeout: '300ms' };
    // The hung dataset comes first: the others' loads wait behind its attempt (one load at a time).
    const srv = await startTestServer(
      [
        { name: 'hung', from: 's3://data/t.parquet', params: hung, acceleration: { enabled: true } },
        { name: 'good', from: 's3://data/t.parquet', params: s3.params, acceleration: { enabled: true } },
      ],
      { datasetRetry: { initialMs: 5000, maxMs: 5000 }, runtime: NO_CACHE },
    );
    try {
      await waitFor(async () => (await get(`${srv.base}/v1/ready`)).status === 200, 'ready', 15_000);
      phase('floe ready (the hung attempt timed out)');
      const d = await listed(srv, 'hung');
      assert.equal(d.status, 'Error');
      assert.deepEqual(d.error, { category: 'dataset', type: 'connection', code: 'dataset.connection' });
      assert.equal(
        d.error_message,
        `Dataset hung (s3): s3 connector: cannot reach ${silent.endpoint} for s3://data/t.parquet: ETIMEDOUT`,
      );
      assert.deepEqual(await versionCounts(srv, 'good'), { n: 3, lo: 1, hi: 1 });
    } finally {
      await srv.close();
      await silent.close();
      await s3.dispose();
      phase('closed');
    }
  });

  it('S3 stopped mid-refresh: Error, the old data keeps serving; back on the same port, the next refresh loads the new data', async (t) => {
    const phase = phaseTimer(t);
    const s3 = await startS3Server(['data']);
    await putVersion(s3, 's3://data/t.parquet', 1, 4);
    const acceleration = { enabled: true, refresh_check_interval: '300ms' };
    const srv = await startTestServer([{ name: 't', from: 's3://data/t.parquet', params: s3.params, acceleration }], {
      datasetRetry: FAST_RETRY,
      runtime: NO_CACHE,
    });
    phase('s3rver and floe started, first load made');
    try {
      assert.deepEqual(await versionCounts(srv, 't'), { n: 4, lo: 1, hi: 1 });
      await s3.stop();
      await waitFor(async () => (await listed(srv, 't')).status === 'Error', 'a refresh to fail');
      phase('s3rver stopped until a refresh failed');
      const d = await listed(srv, 't');
      assert.deepEqual(d.error, { category: 'dataset', type: 'connection', code: 'dataset.connection' });
      assert.match(
        d.error_message ?? '',
        /^Dataset t \(s3\): refresh failed; serving the data loaded at \S+Z: s3 connector: cannot reach http:\/\/127\.0\.0\.1:\d+ for s3:\/\/data\/t\.parquet/,
      );
      assert.deepEqual(await versionCounts(srv, 't'), { n: 4, lo: 1, hi: 1 }, 'the old data keeps serving');

      await s3.start();
      await waitFor(async () => (await listed(srv, 't')).status === 'Ready', 'a refresh to succeed');
      phase('s3rver started again until a refresh succeeded');
      assert.equal((await listed(srv, 't')).error, null);
      await putVersion(s3, 's3://data/t.parquet', 2, 6);
      await waitFor(async () => (await versionCounts(srv, 't')).lo === 2, 'the new object to be loaded');
      phase('new object uploaded until served');
      assert.deepEqual(await versionCounts(srv, 't'), { n: 6, lo: 2, hi: 2 });
    } finally {
      await srv.close();
      await s3.dispose();
      phase('closed');
    }
  });
});
