// iceberg-js 0.8.1 (an independent REST client) against a real server: the datasets' `floe` catalog and a fake
// Iceberg catalog with snapshots; table UUIDs stable across calls and restarts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IcebergError, IcebergRestCatalog } from 'iceberg-js';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { FAKE_CATALOG, FAKE_METADATA, fakeSource } from './rest-fake-source.js';

let dir: string;
let srv: TestServer;
let catalog: IcebergRestCatalog;

const datasets = () => [
  { name: 'people', from: `file:${join(dir, 'people.parquet')}` },
  { name: 'big', from: `file:${join(dir, 'big.parquet')}`, acceleration: { enabled: true } },
];
const start = () => startTestServer(datasets(), { icebergSources: [fakeSource()] });

before(async () => {
  dir = await makeTempDir();
  await writePeople(join(dir, 'people.parquet'));
  await writeBig(join(dir, 'big.parquet'), 100);
  srv = await start();
  catalog = new IcebergRestCatalog({ baseUrl: `${srv.base}/v1/iceberg` });
});
after(() => srv.close());

const FLOE_PUBLIC = { namespace: ['floe', 'public'] };

describe('iceberg-js: the datasets catalog', () => {
  it('lists the catalogs, then the schema under floe, then nothing under floe.public', async () => {
    assert.deepEqual(await catalog.listNamespaces(), [{ namespace: ['floe'] }, { namespace: [FAKE_CATALOG] }]);
    assert.deepEqual(await catalog.listNamespaces({ namespace: ['floe'] }), [FLOE_PUBLIC]);
    assert.deepEqual(await catalog.listNamespaces(FLOE_PUBLIC), []);
  });

  it('namespaceExists and loadNamespaceMetadata', async () => {
    assert.equal(await catalog.namespaceExists(FLOE_PUBLIC), true);
    assert.equal(await catalog.namespaceExists({ namespace: ['floe'] }), true);
    assert.equal(await catalog.namespaceExists({ namespace: ['floe', 'private'] }), false);
    assert.equal(await catalog.namespaceExists({ namespace: ['floe', 'public', 'deeper'] }), false);
    assert.deepEqual(await catalog.loadNamespaceMetadata(FLOE_PUBLIC), { properties: {} });
    await assert.rejects(catalog.loadNamespaceMetadata({ namespace: ['nowhere'] }), (e: unknown) => {
      assert.ok(e instanceof IcebergError);
      assert.equal(e.status, 404);
      assert.equal(e.icebergType, 'NoSuchNamespaceException');
      return true;
    });
  });

  it('lists every dataset (file and accelerated) as a table of floe.public, sorted', async () => {
    assert.deepEqual(await catalog.listTables(FLOE_PUBLIC), [
      { namespace: ['floe', 'public'], name: 'big' },
      { namespace: ['floe', 'public'], name: 'people' },
    ]);
    assert.deepEqual(await catalog.listTables({ namespace: ['floe'] }), []);
  });

  it('loads synthesized v2 metadata with the Parquet file columns mapped per the contract', async () => {
    const m = await catalog.loadTable({ ...FLOE_PUBLIC, name: 'people' });
    assert.equal(m['format-version'], 2);
    assert.match(m['table-uuid'] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(m.location, 'floe://datasets/people');
    assert.deepEqual(
      m.schemas[0]?.fields.map((f) => [f.id, f.name, f.type]),
      [
        [1, 'id', 'int'],
        [2, 'name', 'string'],
        [3, 'note', 'string'],
        [4, 'amount', 'decimal(15, 2)'],
        [5, 'born', 'date'],
        [6, 'score', 'double'],
        [7, 'active', 'boolean'],
      ],
    );
    assert.equal(m['current-schema-id'], 0);
    assert.equal(m['last-column-id'], 7);
    assert.deepEqual(m['partition-specs'], [{ 'spec-id': 0, fields: [] }]);
    assert.equal(m['last-partition-id'], 999);
    assert.deepEqual(m['sort-orders'], [{ 'order-id': 0, fields: [] }]);
    assert.equal(m['last-sequence-number'], 0);
    assert.deepEqual(m.snapshots, []);
    assert.equal(m['current-snapshot-id'], -1);
    const big = await catalog.loadTable({ ...FLOE_PUBLIC, name: 'big' });
    assert.deepEqual(
      big.schemas[0]?.fields.map((f) => [f.name, f.type]),
      [
        ['id', 'int'],
        ['label', 'string'],
        ['grp', 'int'],
      ],
    );
    assert.notEqual(big['table-uuid'], m['table-uuid']);
  });

  it('tableExists: true for a dataset, false for an unknown table, schema or catalog', async () => {
    assert.equal(await catalog.tableExists({ ...FLOE_PUBLIC, name: 'people' }), true);
    assert.equal(await catalog.tableExists({ ...FLOE_PUBLIC, name: 'nobody' }), false);
    assert.equal(await catalog.tableExists({ namespace: ['floe', 'other'], name: 'people' }), false);
    assert.equal(await catalog.tableExists({ namespace: ['floe'], name: 'people' }), false);
    await assert.rejects(catalog.loadTable({ ...FLOE_PUBLIC, name: 'nobody' }), (e: unknown) => {
      assert.ok(e instanceof IcebergError);
      assert.equal(e.status, 404);
      assert.equal(e.icebergType, 'NoSuchTableException');
      return true;
    });
  });

  it('keeps table-uuid stable across calls and across a restart', async () => {
    const id = { ...FLOE_PUBLIC, name: 'people' };
    const first = (await catalog.loadTable(id))['table-uuid'];
    assert.equal((await catalog.loadTable(id))['table-uuid'], first);
    await srv.close();
    srv = await start();
    catalog = new IcebergRestCatalog({ baseUrl: `${srv.base}/v1/iceberg` });
    assert.equal((await catalog.loadTable(id))['table-uuid'], first);
  });
});

describe('iceberg-js: an Iceberg catalog source with snapshots', () => {
  const SALES = { namespace: [FAKE_CATALOG, 'sales'] };

  it('lists its schemas and tables', async () => {
    assert.deepEqual(await catalog.listNamespaces({ namespace: [FAKE_CATALOG] }), [
      { namespace: [FAKE_CATALOG, 'empty'] },
      SALES,
    ]);
    assert.deepEqual(
      (await catalog.listTables(SALES)).map((t) => t.name),
      ['broken', 'orders'],
    );
    assert.deepEqual(await catalog.listTables({ namespace: [FAKE_CATALOG, 'empty'] }), []);
  });

  it('loads the metadata as the source gave it: snapshots, refs, partition spec', async () => {
    assert.deepEqual(await catalog.loadTable({ ...SALES, name: 'orders' }), FAKE_METADATA);
    assert.equal(await catalog.tableExists({ ...SALES, name: 'orders' }), true);
  });

  it('a failing source answers 500 InternalServerError without its message', async () => {
    await assert.rejects(catalog.loadTable({ ...SALES, name: 'broken' }), (e: unknown) => {
      assert.ok(e instanceof IcebergError);
      assert.equal(e.status, 500);
      assert.equal(e.icebergType, 'InternalServerError');
      assert.match(e.message, /^Internal Server Error: internal \(ref [\w-]+\)$/);
      return true;
    });
  });

  it('write operations are refused with UnsupportedOperationException (writes go through SQL)', async () => {
    const refused = (e: unknown) => {
      assert.ok(e instanceof IcebergError);
      assert.equal(e.status, 406);
      assert.equal(e.icebergType, 'UnsupportedOperationException');
      assert.match(e.message, /through SQL/);
      return true;
    };
    await assert.rejects(catalog.createNamespace({ namespace: [FAKE_CATALOG, 'new'] }), refused);
    await assert.rejects(catalog.dropNamespace(SALES), refused);
    await assert.rejects(catalog.dropTable({ ...SALES, name: 'orders' }), refused);
    const schema = { type: 'struct' as const, fields: [], 'schema-id': 0 };
    await assert.rejects(catalog.createTable(SALES, { name: 't', schema }), refused);
  });
});
