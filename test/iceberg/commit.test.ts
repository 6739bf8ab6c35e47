// Commits to a local Hadoop-layout table: snapshot chain, summaries, sequence numbers, live files; icebird reads them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { TableExistsError, TableNotEmptyError } from '../../catalog/iceberg/errors.js';
import { currentManifests, liveDataFiles, liveEntries } from '../../catalog/iceberg/live-files.js';
import { currentSnapshot } from '../../catalog/iceberg/metadata.js';
import { readCurrent } from '../../catalog/iceberg/warehouse.js';
import { type ObjectStore, objectStoreFor } from '../../engine/index.js';
import { expectedRows, icebirdRows, range, SCHEMA, tempWarehouse, writeDataFile } from './helpers.js';

describe('Iceberg commits (local warehouse)', () => {
  let wh: Awaited<ReturnType<typeof tempWarehouse>>;
  before(async () => {
    wh = await tempWarehouse();
  });
  after(() => wh.dispose());

  it('an overwrite replaces only the files it read: an append committed meanwhile keeps its rows', async () => {
    const table = `${wh.url}/s/race`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    const first = await commitFiles(store, table, 'append', [await writeDataFile(table, range(1, 5))]);
    // The overwrite read the table at `first`; an append lands before it commits.
    const read = first.files.map((f) => f.path);
    await commitFiles(store, table, 'append', [await writeDataFile(table, range(6, 8))]);
    const done = await commitFiles(store, table, 'overwrite', [await writeDataFile(table, [100])], { replaces: read });
    assert.deepEqual(await icebirdRows(table), expectedRows([6, 7, 8, 100]));
    const summary = currentSnapshot(done.metadata)!.summary;
    assert.deepEqual(
      [summary.operation, summary['deleted-records'], summary['added-records'], summary['total-records']],
      ['overwrite', '5', '1', '4'],
    );
    const entries = await liveEntries(store, done.metadata, await currentManifests(store, done.metadata));
    assert.deepEqual(entries.map((e) => e.file.recordCount).sort(), [1, 3]);
    assert.deepEqual(
      (await liveDataFiles(store, done.metadata)).map((f) => f.path).sort(),
      done.files.map((f) => f.path).sort(),
    );
    // Without `replaces`, an overwrite replaces every live file.
    await commitFiles(store, table, 'overwrite', [await writeDataFile(table, [200])]);
    assert.deepEqual(await icebirdRows(table), expectedRows([200]));
  });

  it('append, append, overwrite, append: a chain of snapshots icebird reads as floe does', async () => {
    const table = `${wh.url}/s/chain`;
    const store = objectStoreFor(table);
    const created = await createTable(store, table, SCHEMA, []);
    assert.equal(created.version, 1);
    const m1 = created.metadata;
    assert.equal(m1['current-snapshot-id'], -1);
    assert.deepEqual(
      [m1['format-version'], m1['last-partition-id'], m1['last-column-id'], m1['last-sequence-number']],
      [2, 999, 2, 0],
    );
    assert.match(m1['table-uuid'], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.deepEqual(m1.schemas, [SCHEMA]);
    assert.deepEqual(m1['partition-specs'], [{ 'spec-id': 0, fields: [] }]);
    assert.deepEqual(m1['sort-orders'], [{ 'order-id': 0, fields: [] }]);
    assert.equal(m1.properties?.['write.format.default'], 'parquet');
    assert.equal('schema' in m1 || 'partition-spec' in m1, false, 'v2 writes no singular forms');
    assert.deepEqual(await liveDataFiles(store, created.metadata), []);

    const a = await writeDataFile(table, range(1, 10));
    const b1 = await writeDataFile(table, range(11, 15));
    const b2 = await writeDataFile(table, range(16, 30));
    const c = await writeDataFile(table, range(100, 104));
    const d = await writeDataFile(table, range(200, 201));
    const s1 = await commitFiles(store, table, 'append', [a]);
    const s2 = await commitFiles(store, table, 'append', [b1, b2]);
    assert.deepEqual(await icebirdRows(table), expectedRows(range(1, 30)));
    const s3 = await commitFiles(store, table, 'overwrite', [c]);
    assert.deepEqual(await icebirdRows(table), expectedRows(range(100, 104)));
    const s4 = await commitFiles(store, table, 'append', [d]);

    assert.deepEqual(
      [s1, s2, s3, s4].map((s) => s.version),
      [2, 3, 4, 5],
    );
    const current = await readCurrent(store, table);
    assert.equal(current?.version, 5);
    const m = current!.metadata;
    assert.equal(m['last-sequence-number'], 4);
    const snaps = m.snapshots!;
    assert.deepEqual(
      snaps.map((s) => s['sequence-number']),
      [1, 2, 3, 4],
    );
    assert.equal(snaps[0]!['parent-snapshot-id'], undefined);
    for (let i = 1; i < 4; i++) assert.equal(snaps[i]!['parent-snapshot-id'], snaps[i - 1]!['snapshot-id']);
    assert.equal(m['current-snapshot-id'], s4.snapshotId);
    assert.equal(m.refs?.main?.['snapshot-id'], s4.snapshotId);
    assert.deepEqual(
      m['snapshot-log']!.map((l) => l['snapshot-id']),
      snaps.map((s) => s['snapshot-id']),
    );
    assert.deepEqual(
      m['metadata-log']!.map((l) => l['metadata-file'].replace(/.*\//, '')),
      ['v1.metadata.json', 'v2.metadata.json', 'v3.metadata.json', 'v4.metadata.json'],
    );
    for (const s of snaps) assert.ok(s['snapshot-id'] > 0 && s['snapshot-id'] <= Number.MAX_SAFE_INTEGER);

    const summaries = snaps.map((s) => s.summary);
    assert.equal(summaries[0]!.operation, 'append');
    assert.equal(summaries[1]!['added-data-files'], '2');
    assert.equal(summaries[1]!['added-records'], '20');
    assert.equal(summaries[1]!['total-records'], '30');
    assert.equal(summaries[1]!['total-data-files'], '3');
    assert.equal(summaries[1]!['total-files-size'], String(a.fileSizeBytes + b1.fileSizeBytes + b2.fileSizeBytes));
    assert.equal(summaries[2]!.operation, 'overwrite');
    assert.equal(summaries[2]!['deleted-data-files'], '3');
    assert.equal(summaries[2]!['deleted-records'], '30');
    assert.equal(summaries[2]!['total-records'], '5');
    assert.equal(summaries[3]!['total-records'], '7');
    assert.equal(summaries[3]!['engine-name'], 'floe');
    assert.equal(summaries[3]!['changed-partition-count'], '1');

    const live = await liveDataFiles(store, m);
    assert.deepEqual(live.map((f) => f.path).sort(), [c.path, d.path].sort());
    assert.deepEqual(s4.files.map((f) => f.path).sort(), [c.path, d.path].sort());
    assert.deepEqual(
      live.find((f) => f.path === c.path),
      c,
      'a DataFile reads back as written (bounds decoded)',
    );
    // c was added at sequence 3 (inherited from the list), d at 4.
    const entries = await liveEntries(store, m, await currentManifests(store, m));
    assert.deepEqual(
      entries.map((e) => [e.file.path, e.sequenceNumber]).sort(),
      [
        [c.path, 3],
        [d.path, 4],
      ].sort(),
    );
    assert.deepEqual(await icebirdRows(table), expectedRows([...range(100, 104), 200, 201]));
  });

  it('overwrite lists a DELETED manifest with explicit sequence numbers and does not carry old manifests', async () => {
    const table = `${wh.url}/s/over`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    await commitFiles(store, table, 'append', [await writeDataFile(table, [1, 2])]);
    await commitFiles(store, table, 'append', [await writeDataFile(table, [3])]);
    const over = await commitFiles(store, table, 'overwrite', [await writeDataFile(table, [9])]);
    const list = await currentManifests(store, over.metadata);
    assert.equal(list.length, 2);
    const [added, deleted] = list;
    assert.deepEqual([added!.added_files_count, added!.deleted_files_count, added!.sequence_number], [1, 0, 3]);
    assert.deepEqual(
      [deleted!.deleted_files_count, deleted!.deleted_rows_count, deleted!.min_sequence_number],
      [2, 3, 1],
    );
    assert.equal(currentSnapshot(over.metadata)!.summary['removed-files-size'] !== undefined, true);
  });

  it('error_if_not_empty appends to an empty table and refuses a table holding rows', async () => {
    const table = `${wh.url}/s/strict`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    const first = await commitFiles(store, table, 'error_if_not_empty', [await writeDataFile(table, [1, 2, 3])]);
    assert.equal(first.metadata.snapshots![0]!.summary.operation, 'append');
    const extra = await writeDataFile(table, [4]);
    await assert.rejects(commitFiles(store, table, 'error_if_not_empty', [extra]), TableNotEmptyError);
    const now = await readCurrent(store, table);
    assert.equal(now?.version, 2, 'the refused commit published nothing');
    const metadataFiles = await store.list(`${table}/metadata/`);
    assert.equal(metadataFiles.filter((o) => o.location.endsWith('.avro')).length, 2, 'and left no manifest behind');
  });

  it('removes what a failed commit wrote, and names what it must leave when publication is in doubt', async () => {
    const table = `${wh.url}/s/failing`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    const file = await writeDataFile(table, [1]);
    const failing = (match: RegExp): ObjectStore => ({
      head: (l) => store.head(l),
      read: (l, r, o) => store.read(l, r, o),
      list: (p) => store.list(p),
      delete: (l) => store.delete(l),
      put: (l, b, c) => (match.test(l) ? Promise.reject(new Error('disk full')) : store.put(l, b, c)),
    });
    const avro = async () => (await store.list(`${table}/metadata/`)).filter((o) => o.location.endsWith('.avro'));
    await assert.rejects(commitFiles(failing(/\/snap-/), table, 'append', [file]), /^Error: disk full$/);
    assert.deepEqual(await avro(), [], 'the manifest written before the list is removed');
    // A put of the next version that failed without an answer may have landed: its list and manifest stay.
    await assert.rejects(
      commitFiles(failing(/v2\.metadata/), table, 'append', [file]),
      /disk full \(left for cleanup: .*-m0\.avro.*snap-/,
    );
    assert.equal((await avro()).length, 2);
    assert.equal((await readCurrent(store, table))?.version, 1);
  });

  it('refuses to create a table twice', async () => {
    const table = `${wh.url}/s/twice`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    await assert.rejects(createTable(store, table, SCHEMA, []), TableExistsError);
  });
});
