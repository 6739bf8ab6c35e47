// The Hadoop-layout warehouse: finding the current version (stale, garbled or missing hints), discovery, drop.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { createNamespace, discover, dropTable, readCurrent } from '../../catalog/iceberg/warehouse.js';
import { objectStoreFor } from '../../engine/index.js';
import { SCHEMA, tempWarehouse, writeDataFile } from './helpers.js';

describe('Iceberg warehouse (Hadoop layout)', () => {
  let wh: Awaited<ReturnType<typeof tempWarehouse>>;
  before(async () => {
    wh = await tempWarehouse();
  });
  after(() => wh.dispose());

  it('takes the newest complete version, whatever the hint says', async () => {
    const table = `${wh.url}/s/hint`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    await commitFiles(store, table, 'append', [await writeDataFile(table, [1])]);
    await commitFiles(store, table, 'append', [await writeDataFile(table, [2])]);
    const hint = `${table}/metadata/version-hint.text`;
    const enc = new TextEncoder();
    assert.equal((await readCurrent(store, table))?.version, 3);
    // A writer that died after publishing v2 and v3 but before rewriting the hint.
    await store.put(hint, enc.encode('1'));
    assert.equal((await readCurrent(store, table))?.version, 3);
    await store.put(hint, enc.encode('garbage'));
    assert.equal((await readCurrent(store, table))?.version, 3);
    await store.put(hint, enc.encode('v9'));
    assert.equal((await readCurrent(store, table))?.version, 3, 'a hint past the newest falls back to listing');
    await store.delete(hint);
    const current = await readCurrent(store, table);
    assert.equal(current?.version, 3);
    assert.equal(current?.metadataLocation, `${table}/metadata/v3.metadata.json`);
    assert.equal(await readCurrent(store, `${wh.url}/s/none`), null);
  });

  it('discovers schemas (marker or table) and tables; drop removes a table whole', async () => {
    const root = `${wh.url}/disc`;
    const store = objectStoreFor(root);
    assert.equal(await createNamespace(store, root, 'empty'), true);
    assert.equal(await createNamespace(store, root, 'empty'), false, 'exists already');
    const t1 = `${root}/sales/orders`;
    const t2 = `${root}/sales/items`;
    const t3 = `${root}/web/my table`;
    for (const t of [t1, t2, t3]) await createTable(store, t, SCHEMA, []);
    await commitFiles(store, t1, 'append', [await writeDataFile(t1, [1, 2])]);
    const found = await discover(store, root);
    assert.deepEqual(found.schemas, ['empty', 'sales', 'web']);
    assert.deepEqual(
      found.tables.map((t) => [t.schema, t.table, t.location]),
      [
        ['sales', 'items', t2],
        ['sales', 'orders', t1],
        ['web', 'my table', t3],
      ],
    );

    assert.equal(await dropTable(store, t1), true);
    assert.equal(await readCurrent(store, t1), null);
    assert.deepEqual(await store.list(`${t1}/`), [], 'metadata and data are gone');
    assert.equal(await dropTable(store, t1), false);
    assert.deepEqual(
      (await discover(store, root)).tables.map((t) => t.table),
      ['items', 'my table'],
    );
    // The name is free again.
    await createTable(store, t1, SCHEMA, []);
    assert.equal((await readCurrent(store, t1))?.version, 1);
  });
});
