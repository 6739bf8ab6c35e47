// Iceberg catalogs as a user meets them: the REST API serving floe's own writes to iceberg-js and icebird, access
// rules (read-only catalog, read-only key), a dataset over one table that follows floe's writes, an S3 warehouse.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { IcebergRestCatalog } from 'iceberg-js';
import { icebergRead } from 'icebird';
import { objectStoreFor } from '../../engine/index.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { S3RVER_KEY, S3RVER_SECRET, type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { shimFetchForFiles, shimFetchForS3 } from './helpers.js';

type Row = Record<string, unknown>;
const RW = 'rw-key-0123456789';
const RO = 'ro-key-0123456789';

async function sql(
  srv: TestServer,
  text: string,
  key?: string,
): Promise<{ status: number; rows: Row[]; text: string }> {
  const a = await post(srv.sql, text, key === undefined ? {} : { authorization: `Bearer ${key}` });
  return { status: a.status, text: a.text, rows: a.status === 200 ? (JSON.parse(a.text) as Row[]) : [] };
}
async function ok(srv: TestServer, text: string, key?: string): Promise<Row[]> {
  const a = await sql(srv, text, key);
  assert.equal(a.status, 200, `${text}\n${a.text}`);
  return a.rows;
}
/** Polls until `check` passes (a dataset follows a write asynchronously). */
async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('Iceberg catalogs: REST, access, datasets', () => {
  let wh: string;
  let ro: string;
  let srv: TestServer;
  before(async () => {
    wh = await makeTempDir('floe-ice-cat-');
    ro = await makeTempDir('floe-ice-ro-');
    // The read-only warehouse gets a table from a first, writable server.
    const writer = await startTestServer([], {
      catalogs: [{ from: `iceberg:${pathToFileURL(ro).href}`, name: 'archive', access: 'read_write' }],
    });
    await ok(writer, 'CREATE SCHEMA archive.old');
    await ok(writer, "CREATE TABLE archive.old.t AS SELECT 1 AS id, 'x' AS v");
    await writer.close();
    const table = pathToFileURL(join(wh, 'sales', 'orders')).href;
    srv = await startTestServer(
      [
        { name: 'orders_files', from: `iceberg:${table}` },
        { name: 'orders_mem', from: `iceberg:${table}`, acceleration: { enabled: true } },
      ],
      {
        catalogs: [
          { from: `iceberg:${pathToFileURL(wh).href}`, name: 'lake', access: 'read_write' },
          { from: `iceberg:${pathToFileURL(ro).href}`, name: 'archive' },
        ],
        runtime: { auth: { 'api-key': { enabled: true, keys: [`${RW}:rw`, `${RO}:ro`] } } },
        datasetRetry: { initialMs: 50, maxMs: 100 },
      },
    );
  });
  after(async () => {
    await srv.close();
    await rm(wh, { recursive: true, force: true });
    await rm(ro, { recursive: true, force: true });
  });

  it('writes need a key that may write, and a catalog with access: read_write', async () => {
    assert.equal((await sql(srv, 'CREATE SCHEMA lake.sales')).status, 401);
    const denied = await sql(srv, 'CREATE SCHEMA lake.sales', RO);
    assert.equal(denied.status, 403, denied.text);
    await ok(srv, 'CREATE SCHEMA lake.sales', RW);
    await ok(srv, 'CREATE TABLE lake.sales.orders (id int NOT NULL, item text)', RW);
    const readOnly = await sql(srv, "INSERT INTO archive.old.t VALUES (2, 'y')", RW);
    assert.equal(readOnly.status, 403, readOnly.text);
    assert.match(readOnly.text, /catalog archive is read-only/);
    assert.deepEqual(await ok(srv, 'SELECT id, v FROM archive.old.t', RO), [{ id: 1, v: 'x' }]);
  });

  it('datasets over one table (files and accelerated) follow floe writes to it', async () => {
    await ok(srv, "INSERT INTO lake.sales.orders VALUES (1, 'a'), (2, 'b')", RW);
    for (const name of ['orders_files', 'orders_mem'])
      await eventually(async () => {
        assert.deepEqual(await ok(srv, `SELECT count(*) AS n FROM ${name}`, RO), [{ n: 2 }], name);
      });
    await ok(srv, "INSERT INTO lake.sales.orders VALUES (3, 'c')", RW);
    for (const name of ['orders_files', 'orders_mem'])
      await eventually(async () => {
        assert.deepEqual(await ok(srv, `SELECT sum(id) AS s FROM ${name}`, RO), [{ s: 6 }], name);
      });
  });

  it('the REST API serves the table floe wrote: iceberg-js loads it, icebird reads its snapshot', async () => {
    const catalog = new IcebergRestCatalog({ baseUrl: `${srv.base}/v1/iceberg`, auth: { type: 'bearer', token: RO } });
    assert.deepEqual(
      (await catalog.listNamespaces()).map((n) => n.namespace),
      [['floe'], ['lake'], ['archive']],
    );
    assert.deepEqual(await catalog.listNamespaces({ namespace: ['lake'] }), [{ namespace: ['lake', 'sales'] }]);
    assert.deepEqual(await catalog.listTables({ namespace: ['lake', 'sales'] }), [
      { namespace: ['lake', 'sales'], name: 'orders' },
    ]);
    const metadata = await catalog.loadTable({ namespace: ['lake', 'sales'], name: 'orders' });
    assert.equal(metadata['format-version'], 2);
    assert.equal(metadata.location, pathToFileURL(join(wh, 'sales', 'orders')).href);
    assert.equal(metadata.snapshots?.length, 2);
    const raw = await fetch(`${srv.base}/v1/iceberg/v1/namespaces/lake%1Fsales/tables/orders`, {
      headers: { authorization: `Bearer ${RO}` },
    });
    const loaded = (await raw.json()) as { 'metadata-location': string; metadata: { 'table-uuid': string } };
    assert.match(loaded['metadata-location'], /\/metadata\/v3\.metadata\.json$/);
    assert.equal(loaded.metadata['table-uuid'], metadata['table-uuid']);
    shimFetchForFiles();
    const rows = await icebergRead({ tableUrl: metadata.location, metadata: loaded.metadata as never });
    assert.deepEqual(
      rows.map((r) => [Number(r.id), r.item]).sort((a, b) => Number(a[0]) - Number(b[0])),
      [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ],
    );
  });
});

describe('Iceberg catalog in an S3 warehouse', () => {
  let s3: S3TestServer;
  let srv: TestServer;
  before(async () => {
    s3 = await startS3Server(['lake']);
    srv = await startTestServer([], {
      catalogs: [
        {
          from: 'iceberg:s3://lake/warehouse',
          name: 'lake',
          access: 'read_write',
          params: { s3_endpoint: s3.endpoint, s3_key: S3RVER_KEY, s3_secret: S3RVER_SECRET, allow_http: true },
        },
      ],
    });
  });
  after(async () => {
    await srv.close();
    await s3.dispose();
  });

  it('creates, appends and overwrites through SQL; floe and icebird read the same rows; a restart finds them', async () => {
    await ok(srv, 'CREATE SCHEMA lake.web');
    await ok(srv, 'CREATE TABLE lake.web.visits (id bigint, page text) PARTITIONED BY (truncate(2, page))');
    await ok(srv, "INSERT INTO lake.web.visits VALUES (1, 'home'), (2, 'about'), (3, 'home')");
    await ok(srv, "INSERT OVERWRITE lake.web.visits SELECT id * 10, page FROM lake.web.visits WHERE page = 'home'");
    await ok(srv, "INSERT INTO lake.web.visits VALUES (40, 'help')");
    const floe = await ok(srv, 'SELECT id, page FROM lake.web.visits ORDER BY id');
    assert.deepEqual(floe, [
      { id: 10, page: 'home' },
      { id: 30, page: 'home' },
      { id: 40, page: 'help' },
    ]);
    const loaded = await (await fetch(`${srv.base}/v1/iceberg/v1/namespaces/lake%1Fweb/tables/visits`)).text();
    assert.deepEqual(JSON.parse(loaded).config, {
      'client.region': 'us-east-1',
      's3.endpoint': s3.endpoint,
      's3.path-style-access': 'true',
    });
    assert.doesNotMatch(loaded, new RegExp(`${S3RVER_KEY}|${S3RVER_SECRET}`), 'no credentials in loadTable');
    shimFetchForS3(objectStoreFor('s3://lake/warehouse', s3.config));
    const theirs = await icebergRead({ tableUrl: 's3://lake/warehouse/web/visits' });
    assert.deepEqual(
      theirs.map((r) => ({ id: Number(r.id), page: r.page })).sort((a, b) => a.id - b.id),
      floe,
    );
    await srv.close();
    srv = await startTestServer([], {
      catalogs: [
        {
          from: 'iceberg:s3://lake/warehouse',
          name: 'lake',
          params: { s3_endpoint: s3.endpoint, s3_key: S3RVER_KEY, s3_secret: S3RVER_SECRET, allow_http: true },
        },
      ],
    });
    assert.deepEqual(await ok(srv, 'SELECT id, page FROM lake.web.visits ORDER BY id'), floe);
  });
});
