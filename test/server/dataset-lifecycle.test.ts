// A dataset that fails at start: the runtime serves the others, reports the error, retries, and swaps it in once it loads.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor, writeVersion } from '../helpers/dataset-files.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { get, post } from '../helpers/http.js';
import { parseExposition } from '../helpers/prometheus-text.js';
import { startTestServer } from '../helpers/test-server.js';

const RETRY = { initialMs: 50, maxMs: 200 };

describe('dataset lifecycle', () => {
  it('a missing file: ready after the first attempt, others serve, queries 400, the retry loads it', async () => {
    const dir = await makeTempDir();
    const trips = join(dir, 'trips.parquet');
    const zones = await writeVersion(join(dir, 'zones.parquet'), 1, 3);
    const srv = await startTestServer(
      [
        { name: 'zones', from: `file:${zones}` },
        { name: 'trips', from: `file:${trips}`, acceleration: { enabled: true } },
      ],
      { datasetRetry: RETRY, metrics: { host: '127.0.0.1', port: 0 } },
    );
    const loadState = async () => {
      const res = await get(`http://127.0.0.1:${srv.server.metrics?.port}/metrics`);
      return parseExposition(res.text).value('dataset_load_state', { dataset: 'trips' });
    };
    try {
      assert.equal((await get(`${srv.base}/v1/ready`)).status, 200);
      assert.equal((await post(srv.sql, 'SELECT count(*) AS n FROM zones')).text, '[{"n":3}]');
      const message = `Dataset trips (file): no such file or folder: ${trips}`;
      const [, state] = srv.server.datasets.list();
      assert.deepEqual(
        { status: state?.status, error: state?.error, errorMessage: state?.errorMessage },
        {
          status: 'Error',
          error: { category: 'dataset', type: 'source', code: 'dataset.source' },
          errorMessage: message,
        },
      );
      assert.equal(await loadState(), 3);
      const failed = await post(srv.sql, 'SELECT count(*) AS n FROM trips');
      assert.equal(failed.status, 400);
      assert.equal(failed.text, `dataset "trips" cannot be read: ${message}`);

      await writeVersion(trips, 7, 5);
      await waitFor(() => srv.server.datasets.list()[1]?.status === 'Ready', 'trips to load');
      assert.equal(srv.server.datasets.list()[1]?.error, null);
      assert.equal((await post(srv.sql, 'SELECT count(*) AS n, min(version) AS v FROM trips')).text, '[{"n":5,"v":7}]');
      assert.equal(await loadState(), 1);
    } finally {
      await srv.close();
    }
  });

  it('a file that is not Parquet: Error naming the dataset, the connector and the reader', async () => {
    const dir = await makeTempDir();
    const bad = join(dir, 'bad.parquet');
    await writeFile(bad, 'plain text, not Parquet');
    const good = await writeVersion(join(dir, 'good.parquet'), 1, 2);
    const srv = await startTestServer(
      [
        { name: 'bad', from: `file:${bad}` },
        { name: 'worse', from: `file:${bad}`, acceleration: { enabled: true } },
        { name: 'good', from: `file:${good}` },
      ],
      { datasetRetry: RETRY },
    );
    try {
      const [files, accelerated, fine] = srv.server.datasets.list();
      assert.equal(fine?.status, 'Ready', 'a files-mode dataset beside a failing one loads');
      assert.equal((await post(srv.sql, 'SELECT count(*) AS n FROM good')).text, '[{"n":2}]');
      assert.equal(files?.status, 'Error');
      assert.match(files?.errorMessage ?? '', /^Dataset bad \(file\): cannot read: /);
      assert.equal(accelerated?.status, 'Error');
      assert.match(accelerated?.errorMessage ?? '', /^Dataset worse \(file\): cannot (load|read): /);
      assert.equal(files?.error?.code, 'dataset.source');
      const res = await post(srv.sql, 'SELECT * FROM bad');
      assert.equal(res.status, 400);
      assert.match(res.text, /Dataset bad \(file\): cannot read: /);
    } finally {
      await srv.close();
    }
  });

  it('close stops the retries of a dataset that never loads, and ends promptly', async () => {
    const dir = await makeTempDir();
    const logs: string[] = [];
    const srv = await startTestServer([{ name: 'ghost', from: `file:${join(dir, 'none.parquet')}` }], {
      datasetRetry: { initialMs: 20, maxMs: 20 },
      log: (line) => logs.push(line),
    });
    await waitFor(() => logs.filter((l) => l.includes('retrying in')).length >= 2, 'two retries');
    const started = Date.now();
    await srv.close();
    assert.ok(Date.now() - started < 3000);
    assert.equal(srv.server.datasets.list()[0]?.status, 'ShuttingDown');
    const count = logs.length;
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(logs.length, count, 'no retry after close');
    await rm(dir, { recursive: true });
  });
});
