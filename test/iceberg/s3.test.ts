// Iceberg tables in an S3 warehouse (s3rver on loopback): create, append, overwrite, concurrent commits, discovery.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { TableExistsError } from '../../catalog/iceberg/errors.js';
import { liveDataFiles } from '../../catalog/iceberg/live-files.js';
import { currentSnapshot } from '../../catalog/iceberg/metadata.js';
import { createNamespace, discover, dropTable, readCurrent } from '../../catalog/iceberg/warehouse.js';
import { type ObjectStore, objectStoreFor } from '../../engine/index.js';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';
import { expectedRows, icebirdRows, range, SCHEMA, shimFetchForS3, writeDataFile } from './helpers.js';

describe('Iceberg on S3 (s3rver)', () => {
  let server: S3TestServer;
  let store: ObjectStore;
  const warehouse = 's3://lake/warehouse';
  before(async () => {
    server = await startS3Server(['lake']);
    store = objectStoreFor(warehouse, server.config);
    shimFetchForS3(store);
  });
  after(() => server.dispose());

  it('appends, overwrites and appends; icebird reads the table back', async () => {
    const table = `${warehouse}/sales/orders`;
    assert.equal(await createNamespace(store, warehouse, 'sales'), true);
    await createTable(store, table, SCHEMA, []);
    await assert.rejects(createTable(store, table, SCHEMA, []), TableExistsError);
    await commitFiles(store, table, 'append', [await writeDataFile(table, range(1, 5), [], store)]);
    await commitFiles(store, table, 'append', [await writeDataFile(table, range(6, 9), [], store)]);
    assert.deepEqual(await icebirdRows(table), expectedRows(range(1, 9)));
    await commitFiles(store, table, 'overwrite', [await writeDataFile(table, [50], [], store)]);
    const last = await commitFiles(store, table, 'append', [await writeDataFile(table, [60, 61], [], store)]);
    assert.equal(last.version, 5);
    assert.ok(last.metadataLocation.startsWith('s3://lake/warehouse/sales/orders/metadata/v5.metadata.json'));
    assert.equal(currentSnapshot(last.metadata)!.summary['total-records'], '3');
    assert.deepEqual(await icebirdRows(table), expectedRows([50, 60, 61]));
    const found = await discover(store, warehouse);
    assert.deepEqual(found.schemas, ['sales']);
    assert.deepEqual(found.tables, [{ schema: 'sales', table: 'orders', location: table }]);
  });

  it('orders 8 concurrent commits of this process by its table lock', async () => {
    // s3rver ignores If-None-Match: *, so only the in-process lock keeps these from overwriting one version.
    const table = `${warehouse}/sales/busy`;
    await createTable(store, table, SCHEMA, []);
    const files = await Promise.all(range(0, 7).map((i) => writeDataFile(table, [i * 10, i * 10 + 1], [], store)));
    await Promise.all(files.map((f) => commitFiles(store, table, 'append', [f])));
    const current = (await readCurrent(store, table))!;
    assert.equal(current.version, 9);
    assert.equal((await liveDataFiles(store, current.metadata)).length, 8);
    assert.equal(currentSnapshot(current.metadata)!.summary['total-records'], '16');
    assert.equal(await dropTable(store, table), true);
    assert.deepEqual(await store.list(`${table}/`), []);
  });
});
