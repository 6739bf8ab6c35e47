// S3 datasets refreshed through the whole runtime over real HTTP (s3rver on loopback): on demand with a rewritten
// object, append of new objects under a prefix, a refresh_sql override, files mode over a rewritten object, CSV.
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { waitFor } from '../helpers/dataset-files.js';
import { post } from '../helpers/http.js';
import {
  FAST_RETRY,
  listed,
  NO_CACHE,
  phaseTimer,
  putVersion,
  refreshOverHttp,
  versionCounts,
} from '../helpers/s3-runtime.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let s3: S3TestServer;
let srv: TestServer;

before(async (t) => {
  // A top-level hook's context is a TestContext at run time (typed as either).
  const phase = phaseTimer(t as TestContext);
  s3 = await startS3Server(['data']);
  await putVersion(s3, 's3://data/od.parquet', 1, 4);
  await putVersion(s3, 's3://data/app/part-0.parquet', 1, 3);
  await putVersion(s3, 's3://data/flt.parquet', 1, 10);
  await putVersion(s3, 's3://data/files.parquet', 1, 5);
  await putVersion(s3, 's3://data/fp/part-0.parquet', 1, 2);
  await s3.upload('s3://data/items.csv', new TextEncoder().encode('id,name\n1,a\n2,b\n'));
  const p = s3.params;
  const acc = { enabled: true };
  srv = await startTestServer(
    [
      { name: 'od', from: 's3://data/od.parquet', params: p, acceleration: acc },
      { name: 'app', from: 's3://data/app/', params: p, acceleration: { ...acc, refresh_mode: 'append' } },
      { name: 'flt', from: 's3://data/flt.parquet', params: p, acceleration: acc },
      { name: 'files', from: 's3://data/files.parquet', params: p },
      { name: 'fp', from: 's3://data/fp/', params: p },
      { name: 'items', from: 's3://data/items.csv', params: p, acceleration: acc },
    ],
    { datasetRetry: FAST_RETRY, runtime: NO_CACHE },
  );
  phase('s3rver and floe started, six datasets loaded');
});

after(async () => {
  await srv?.close();
  await s3?.dispose();
});

/** Resolves once `name` has been published again (a catalog version newer than `since`) and is Ready. */
async function refreshed(name: string, since: number, phase?: (what: string) => void): Promise<void> {
  await waitFor(
    async () => srv.server.catalogVersion > since && (await listed(srv, name)).status === 'Ready',
    `${name} to refresh`,
  );
  phase?.(`refresh of ${name} (POST until the new data is published)`);
}

describe('S3 datasets in the runtime: refresh', () => {
  it('on demand: a rewritten object is loaded (201, then the new rows)', async (t) => {
    const phase = phaseTimer(t);
    assert.deepEqual(await versionCounts(srv, 'od'), { n: 4, lo: 1, hi: 1 });
    await putVersion(s3, 's3://data/od.parquet', 2, 9);
    assert.deepEqual(await versionCounts(srv, 'od'), { n: 4, lo: 1, hi: 1 }, 'no refresh yet: the loaded copy');
    phase('setup');
    const since = srv.server.catalogVersion;
    await refreshOverHttp(srv, 'od');
    await refreshed('od', since, phase);
    assert.deepEqual(await versionCounts(srv, 'od'), { n: 9, lo: 2, hi: 2 });
  });

  it('append without a time_column: each new object under the prefix is loaded exactly once', async (t) => {
    const phase = phaseTimer(t);
    assert.deepEqual(await versionCounts(srv, 'app'), { n: 3, lo: 1, hi: 1 });
    await putVersion(s3, 's3://data/app/part-1.parquet', 2, 4);
    phase('setup');
    let since = srv.server.catalogVersion;
    await refreshOverHttp(srv, 'app');
    await refreshed('app', since, phase);
    assert.deepEqual(await versionCounts(srv, 'app'), { n: 7, lo: 1, hi: 2 });
    // Nothing new: the same rows (part-1 is not loaded twice).
    await refreshOverHttp(srv, 'app');
    await waitFor(async () => (await listed(srv, 'app')).status === 'Ready', 'the empty append');
    await putVersion(s3, 's3://data/app/part-2.parquet', 3, 5);
    phase('setup');
    since = srv.server.catalogVersion;
    await refreshOverHttp(srv, 'app');
    await refreshed('app', since, phase);
    const res = await post(srv.sql, 'SELECT version, count(*) AS n FROM app GROUP BY version ORDER BY version');
    assert.equal(res.text, '[{"version":1,"n":3},{"version":2,"n":4},{"version":3,"n":5}]');
  });

  it('a refresh_sql override filters that refresh only', async (t) => {
    const phase = phaseTimer(t);
    phase('setup');
    let since = srv.server.catalogVersion;
    await refreshOverHttp(srv, 'flt', { refresh_sql: 'SELECT * FROM flt WHERE id < 3' });
    await refreshed('flt', since, phase);
    assert.deepEqual(await versionCounts(srv, 'flt'), { n: 3, lo: 1, hi: 1 });
    phase('setup');
    since = srv.server.catalogVersion;
    await refreshOverHttp(srv, 'flt');
    await refreshed('flt', since, phase);
    assert.deepEqual(await versionCounts(srv, 'flt'), { n: 10, lo: 1, hi: 1 });
  });

  it('files mode: a query after the object is rewritten reads the new object', async () => {
    assert.deepEqual(await versionCounts(srv, 'files'), { n: 5, lo: 1, hi: 1 });
    await putVersion(s3, 's3://data/files.parquet', 2, 8);
    assert.deepEqual(await versionCounts(srv, 'files'), { n: 8, lo: 2, hi: 2 });
    const res = await post(srv.sql, 'SELECT id FROM files WHERE id >= 6 ORDER BY id');
    assert.equal(res.text, '[{"id":6},{"id":7}]');
  });

  it('files mode over a prefix: the objects listed at load are read, a new one is not', async () => {
    await putVersion(s3, 's3://data/fp/part-1.parquet', 2, 3);
    assert.deepEqual(await versionCounts(srv, 'fp'), { n: 2, lo: 1, hi: 1 });
  });

  it('an accelerated CSV object, refreshed on demand', async (t) => {
    const phase = phaseTimer(t);
    const res = await post(srv.sql, 'SELECT id, name FROM items ORDER BY id');
    assert.equal(res.text, '[{"id":1,"name":"a"},{"id":2,"name":"b"}]');
    await s3.upload('s3://data/items.csv', new TextEncoder().encode('id,name\n1,a\n2,"b, c"\n3,\n'));
    phase('setup');
    const since = srv.server.catalogVersion;
    await refreshOverHttp(srv, 'items');
    await refreshed('items', since, phase);
    const after = await post(srv.sql, 'SELECT id, name FROM items ORDER BY id');
    assert.equal(after.text, '[{"id":1,"name":"a"},{"id":2,"name":"b, c"},{"id":3,"name":null}]');
  });
});
