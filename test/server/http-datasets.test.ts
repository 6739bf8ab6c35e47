// The dataset endpoints end to end (contract §4.5, §7.5): a real runtime with real files, every answer over HTTP.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { waitFor, writeVersion } from '../helpers/dataset-files.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;
let dir: string;

before(async () => {
  dir = await makeTempDir();
  await writeVersion(join(dir, 'trips.parquet'), 1, 20);
  await writeVersion(join(dir, 'zones.parquet'), 1, 5);
  await writeFile(join(dir, 'items.csv'), 'id,label\n1,a\n2,"b, c"\n');
  srv = await startTestServer(
    [
      { name: 'Trips', from: `file:${join(dir, 'trips.parquet')}`, acceleration: { enabled: true } },
      { name: 'zones', from: `file:${join(dir, 'zones.parquet')}` },
      { name: 'gone', from: `file:${join(dir, 'gone.parquet')}`, acceleration: { enabled: true } },
      { name: 'items', from: `file:${join(dir, 'items.csv')}`, acceleration: { enabled: true } },
    ],
    { runtime: { caching: { sql_results: { enabled: false } } }, datasetRetry: { initialMs: 60_000, maxMs: 60_000 } },
  );
});
after(() => srv.close());

async function call(method: string, path: string, body?: string) {
  const res = await fetch(srv.base + path, { method, body });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function versions(): Promise<{ n: number; v: number }> {
  const res = await post(srv.sql, 'SELECT count(*) AS n, max(version) AS v FROM trips');
  assert.equal(res.status, 200, res.text);
  return JSON.parse(res.text)[0];
}

describe('GET /v1/datasets on a running server', () => {
  it('lists every dataset in manifest order; a failed one does not hide the others', async () => {
    const res = await call('GET', '/v1/datasets');
    assert.equal(res.status, 200);
    assert.equal(res.type, 'application/json');
    const items = JSON.parse(res.text);
    assert.deepEqual(
      items.map((d: Record<string, unknown>) => [d.name, d.acceleration_enabled, d.replication_enabled, 'status' in d]),
      [
        ['Trips', true, false, false],
        ['zones', false, false, false],
        ['gone', true, false, false],
        ['items', true, false, false],
      ],
    );
    assert.equal(items[0].from, `file:${join(dir, 'trips.parquet')}`);
    assert.deepEqual(items[0].properties, { search: 'unsupported', vector_search: 'unsupported' });
  });

  it('reports Ready and Error with the error object and a message naming dataset and connector', async () => {
    const items = JSON.parse((await call('GET', '/v1/datasets?status=true')).text);
    const byName = new Map(items.map((d: { name: string }) => [d.name, d]));
    assert.equal((byName.get('Trips') as { status: string }).status, 'Ready');
    assert.equal((byName.get('items') as { status: string }).status, 'Ready');
    const gone = byName.get('gone') as Record<string, unknown>;
    assert.equal(gone.status, 'Error');
    assert.deepEqual(gone.error, { category: 'dataset', type: 'source', code: 'dataset.source' });
    assert.match(String(gone.error_message), /^Dataset gone \(file\): .*gone\.parquet/);
    const query = await post(srv.sql, 'SELECT * FROM gone');
    assert.equal(query.status, 400);
    assert.match(query.text, /gone\.parquet/);
  });

  it('writes CSV with the error code, and filters by source', async () => {
    const csv = await call('GET', '/v1/datasets?format=csv&status=true');
    assert.equal(csv.type, 'text/csv; charset=utf-8');
    const lines = csv.text.trimEnd().split('\n');
    assert.equal(lines[0], 'from,name,replication_enabled,acceleration_enabled,status,error,error_message');
    assert.equal(lines.length, 5);
    assert.match(lines[3]!, /^file:.*gone\.parquet,gone,false,true,Error,dataset\.source,Dataset gone \(file\): /);
    const from = encodeURIComponent(`file:${join(dir, 'zones.parquet')}`);
    const only = JSON.parse((await call('GET', `/v1/datasets?source=${from}`)).text);
    assert.deepEqual(
      only.map((d: { name: string }) => d.name),
      ['zones'],
    );
  });
});

describe('refresh and PATCH on a running server', () => {
  it('refreshes on demand: 201 naming the dataset as configured, then the new data', async () => {
    await writeVersion(join(dir, 'trips.parquet'), 2, 30);
    const res = await call('POST', '/v1/datasets/trips/acceleration/refresh');
    assert.deepEqual(res, {
      status: 201,
      type: 'application/json',
      text: JSON.stringify({ message: 'Dataset refresh triggered for Trips.' }),
    });
    await waitFor(async () => (await versions()).v === 2, 'the refresh');
    assert.deepEqual(await versions(), { n: 30, v: 2 });
  });

  it('applies a refresh_sql override to that refresh only', async () => {
    const body = JSON.stringify({ refresh_sql: 'SELECT id, version FROM trips WHERE id < 7', refresh_mode: 'full' });
    assert.equal((await call('POST', '/v1/datasets/TRIPS/acceleration/refresh', body)).status, 201);
    await waitFor(async () => (await versions()).n === 7, 'the filtered refresh');
    assert.equal((await call('POST', '/v1/datasets/Trips/acceleration/refresh')).status, 201);
    await waitFor(async () => (await versions()).n === 30, 'the next refresh, with the configured SQL');
  });

  it('PATCH stores SQL that binds (the next refresh uses it) and refuses SQL that does not', async () => {
    const bad = await call(
      'PATCH',
      '/v1/datasets/trips/acceleration',
      JSON.stringify({ refresh_sql: 'SELECT nope FROM trips' }),
    );
    assert.equal(bad.status, 400);
    assert.match(JSON.parse(bad.text).message, /nope/);
    const other = await call(
      'PATCH',
      '/v1/datasets/trips/acceleration',
      JSON.stringify({ refresh_sql: 'SELECT * FROM zones' }),
    );
    assert.equal(other.status, 400);
    const good = await call(
      'PATCH',
      '/v1/datasets/trips/acceleration',
      JSON.stringify({ refresh_sql: 'SELECT id, version FROM trips WHERE id >= 25' }),
    );
    assert.deepEqual([good.status, JSON.parse(good.text)], [200, { message: 'Refresh SQL updated for Trips.' }]);
    assert.deepEqual(await versions(), { n: 30, v: 2 }, 'PATCH starts no refresh');
    assert.equal((await call('POST', '/v1/datasets/trips/acceleration/refresh')).status, 201);
    await waitFor(async () => (await versions()).n === 5, 'the refresh with the PATCHed SQL');
  });

  it('answers 400 for a dataset without acceleration, 404 for an unknown one, 400 for a bad body', async () => {
    const plain = await call('POST', '/v1/datasets/zones/acceleration/refresh');
    assert.deepEqual(
      [plain.status, JSON.parse(plain.text)],
      [400, { message: 'Dataset zones does not have acceleration enabled' }],
    );
    const unknown = await call('POST', '/v1/datasets/nope/acceleration/refresh');
    assert.deepEqual([unknown.status, JSON.parse(unknown.text)], [404, { message: 'Dataset nope not found' }]);
    assert.equal((await call('PATCH', '/v1/datasets/nope/acceleration', '{"refresh_sql":"SELECT 1"}')).status, 404);
    assert.equal((await call('POST', '/v1/datasets/trips/acceleration/refresh', '{"refresh_mode":')).status, 400);
  });

  it('refreshes a CSV dataset, and a failed dataset is tried again at once on demand', async () => {
    await writeFile(join(dir, 'items.csv'), 'id,label\n1,a\n2,"b, c"\n3,d\n');
    assert.equal((await call('POST', '/v1/datasets/items/acceleration/refresh')).status, 201);
    await waitFor(async () => {
      const res = await post(srv.sql, 'SELECT count(*) AS n FROM items');
      return JSON.parse(res.text)[0]?.n === 3;
    }, 'the CSV refresh');
    await writeVersion(join(dir, 'gone.parquet'), 9, 3);
    assert.equal((await call('POST', '/v1/datasets/gone/acceleration/refresh')).status, 201);
    await waitFor(async () => (await post(srv.sql, 'SELECT max(version) AS v FROM gone')).text === '[{"v":9}]', 'gone');
    const items = JSON.parse((await call('GET', '/v1/datasets?status=true')).text);
    assert.deepEqual(
      items.map((d: { status: string; error: unknown }) => [d.status, d.error]),
      [
        ['Ready', null],
        ['Ready', null],
        ['Ready', null],
        ['Ready', null],
      ],
    );
  });
});
