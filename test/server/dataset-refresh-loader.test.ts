// Refresh through the real refresh loader over real HTTP: append by interval (new files; time column), refresh SQL (manifest, override, setRefreshSql).
import assert from 'node:assert/strict';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeParquetFile } from '../../engine/index.js';
import { DatasetRequestError } from '../../server/datasets/datasets.js';
import { INT32 } from '../helpers/batches.js';
import { waitFor, writeVersion } from '../helpers/dataset-files.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const NO_CACHE = { caching: { sql_results: { enabled: false } } };
const COUNT = 'SELECT count(*) AS n, count(DISTINCT version) AS d, max(version) AS v FROM t';

async function counts(srv: TestServer): Promise<{ n: number; d: number; v: number }> {
  const res = await post(srv.sql, COUNT);
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text)[0];
}

/** Rows (id, version) for each version in `versions` (`rows` each), written atomically. */
async function writeVersions(path: string, versions: readonly number[], rows: number): Promise<void> {
  const tmp = `${path}.tmp`;
  const n = versions.length * rows;
  await writeParquetFile(tmp, [
    { name: 'id', type: INT32, nullable: false, values: Int32Array.from({ length: n }, (_, i) => i % rows) },
    {
      name: 'version',
      type: INT32,
      nullable: false,
      values: Int32Array.from({ length: n }, (_, i) => versions[Math.floor(i / rows)]!),
    },
  ]);
  await rename(tmp, path);
}

function serve(from: string, acceleration: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return startTestServer([{ name: 't', from, acceleration: { enabled: true, ...acceleration }, ...extra }], {
    runtime: NO_CACHE,
    datasetRetry: { initialMs: 50, maxMs: 200 },
  });
}

describe('refresh through the refresh loader', () => {
  it('append by interval without time_column loads only new files', async () => {
    const dir = join(await makeTempDir(), 't');
    await mkdir(dir);
    await writeVersion(join(dir, 'part-1.parquet'), 1, 4);
    const srv = await serve(`file:${dir}/`, { refresh_mode: 'append', refresh_check_interval: '200ms' });
    try {
      assert.deepEqual(await counts(srv), { n: 4, d: 1, v: 1 });
      await writeVersion(join(dir, 'part-2.parquet'), 2, 3);
      await waitFor(async () => (await counts(srv)).v === 2, 'the appended file');
      assert.deepEqual(await counts(srv), { n: 7, d: 2, v: 2 });
    } finally {
      await srv.close();
    }
  });

  it('append by interval with time_column loads only newer rows', async () => {
    const path = join(await makeTempDir(), 't.parquet');
    await writeVersions(path, [1], 4);
    const srv = await serve(
      `file:${path}`,
      { refresh_mode: 'append', refresh_check_interval: '200ms' },
      { time_column: 'version' },
    );
    try {
      assert.deepEqual(await counts(srv), { n: 4, d: 1, v: 1 });
      await writeVersions(path, [1, 2], 4);
      await waitFor(async () => (await counts(srv)).v === 2, 'the newer rows');
      assert.deepEqual(await counts(srv), { n: 8, d: 2, v: 2 }, 'the version-1 rows are not loaded twice');
    } finally {
      await srv.close();
    }
  });

  it('refresh_sql: the manifest, an override for one refresh, setRefreshSql until restart', async () => {
    const path = await writeVersion(join(await makeTempDir(), 't.parquet'), 1, 10);
    const srv = await serve(`file:${path}`, { refresh_sql: 'SELECT id, version FROM t WHERE id < 2' });
    const rows = async () => (await counts(srv)).n;
    const refreshed = async (overrides = {}) => {
      const before = srv.server.catalogVersion;
      await srv.server.datasets.refresh('t', overrides);
      await waitFor(
        () => srv.server.catalogVersion > before && srv.server.datasets.list()[0]?.status === 'Ready',
        'the refresh',
      );
      return rows();
    };
    try {
      assert.equal(await rows(), 2, 'the first load uses the manifest refresh_sql');
      assert.equal(await refreshed({ refreshSql: 'SELECT id, version FROM t WHERE id < 5' }), 5);
      assert.equal(await refreshed(), 2, 'the override was for that refresh only');
      assert.equal(await srv.server.datasets.setRefreshSql('T', 'SELECT id, version FROM t WHERE id < 7'), 't');
      assert.equal(await rows(), 2, 'setRefreshSql starts no refresh');
      assert.equal(await refreshed(), 7, 'the next refresh uses it');
      assert.equal(await refreshed(), 7, 'and the one after');
      await assert.rejects(srv.server.datasets.setRefreshSql('t', 'SELECT nope FROM t'), DatasetRequestError);
      await assert.rejects(
        srv.server.datasets.refresh('t', { refreshSql: 'SELECT id FROM other' }),
        DatasetRequestError,
      );
      assert.equal(await refreshed(), 7, 'a refused SQL changed nothing');
    } finally {
      await srv.close();
    }
  });
});
