// Manifests and manifest lists as an independent reader (icebird's Avro reader) sees them; partitioned tuples.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { avroMetadata, avroRead } from 'icebird';
import { decodeValue } from '../../catalog/iceberg/bounds.js';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { currentManifests, liveDataFiles } from '../../catalog/iceberg/live-files.js';
import { currentSnapshot } from '../../catalog/iceberg/metadata.js';
import type { DataFile } from '../../catalog/iceberg/spec.js';
import { readCurrent } from '../../catalog/iceberg/warehouse.js';
import { objectStoreFor } from '../../engine/index.js';
import { icebirdRows, SCHEMA, tempWarehouse, writeDataFile } from './helpers.js';

type Json = Record<string, unknown>;

/** icebird's view of an Avro file: header metadata (schema parsed) and records. */
async function icebirdAvro(location: string): Promise<{ metadata: Json; records: Json[] }> {
  const bytes = await readFile(fileURLToPath(location));
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const { metadata, syncMarker } = avroMetadata(reader);
  return { metadata, records: avroRead({ reader, metadata, syncMarker }) as Json[] };
}

/** Field name → field id of a record schema, one level. */
const ids = (record: Json) =>
  Object.fromEntries((record.fields as Json[]).map((f) => [f.name as string, f['field-id'] as number]));
const typeOf = (record: Json, name: string) => {
  const t = (record.fields as Json[]).find((f) => f.name === name)!.type;
  return (Array.isArray(t) ? t.find((b) => b !== 'null') : t) as Json;
};

describe('Iceberg Avro files (read by icebird)', () => {
  let wh: Awaited<ReturnType<typeof tempWarehouse>>;
  let table: string;
  let written: DataFile[];
  before(async () => {
    wh = await tempWarehouse();
    table = `${wh.url}/s/parted`;
    const store = objectStoreFor(table);
    // PARTITIONED BY (id) identity on a long, and truncate[2] on the string.
    await createTable(store, table, SCHEMA, [
      { sourceId: 1, name: 'id_part', transform: 'identity' },
      { sourceId: 2, name: 'name_trunc', transform: 'truncate[2]' },
    ]);
    written = [
      await writeDataFile(table, [5], [5n, 'n5']),
      await writeDataFile(table, [7], [7n, null]),
      await writeDataFile(table, [-3], [-3n, 'n-']),
    ];
    await commitFiles(store, table, 'append', written);
  });
  after(() => wh.dispose());

  it('writes the manifest list with the spec field ids and Java header keys', async () => {
    const store = objectStoreFor(table);
    const m = (await readCurrent(store, table))!.metadata;
    assert.equal(m['last-partition-id'], 1001);
    assert.deepEqual(m['partition-specs'][0]!.fields, [
      { 'source-id': 1, 'field-id': 1000, name: 'id_part', transform: 'identity' },
      { 'source-id': 2, 'field-id': 1001, name: 'name_trunc', transform: 'truncate[2]' },
    ]);
    const snapshot = currentSnapshot(m)!;
    const list = await icebirdAvro(snapshot['manifest-list']);
    assert.equal(list.metadata['snapshot-id'], String(snapshot['snapshot-id']));
    assert.equal(list.metadata['parent-snapshot-id'], 'null');
    assert.equal(list.metadata['sequence-number'], '1');
    assert.equal(list.metadata['format-version'], '2');
    assert.equal(list.metadata['avro.codec'], 'null');
    const schema = list.metadata['avro.schema'] as Json;
    assert.equal(schema.name, 'manifest_file');
    assert.deepEqual(ids(schema), {
      manifest_path: 500,
      manifest_length: 501,
      partition_spec_id: 502,
      content: 517,
      sequence_number: 515,
      min_sequence_number: 516,
      added_snapshot_id: 503,
      added_files_count: 504,
      existing_files_count: 505,
      deleted_files_count: 506,
      added_rows_count: 512,
      existing_rows_count: 513,
      deleted_rows_count: 514,
      partitions: 507,
      key_metadata: 519,
    });
    const partitions = typeOf(schema, 'partitions');
    assert.equal(partitions['element-id'], 508);
    assert.deepEqual(ids(partitions.items as Json), {
      contains_null: 509,
      contains_nan: 518,
      lower_bound: 510,
      upper_bound: 511,
    });
    assert.equal(list.records.length, 1);
    const rec = list.records[0]!;
    assert.equal(rec.added_files_count, 3);
    assert.equal(Number(rec.sequence_number), 1);
    const [idSummary, nameSummary] = rec.partitions as Json[];
    assert.equal(decodeValue('long', idSummary!.lower_bound as Uint8Array), -3n);
    assert.equal(decodeValue('long', idSummary!.upper_bound as Uint8Array), 7n);
    assert.equal(nameSummary!.contains_null, true);
    assert.equal(decodeValue('string', nameSummary!.lower_bound as Uint8Array), 'n-');
  });

  it('writes manifests with the spec field ids, map arrays, the partition record and the header', async () => {
    const store = objectStoreFor(table);
    const m = (await readCurrent(store, table))!.metadata;
    const [manifest] = await currentManifests(store, m);
    const file = await icebirdAvro(manifest!.manifest_path);
    assert.deepEqual(file.metadata.schema, m.schemas[0]);
    assert.equal(file.metadata['schema-id'], '0');
    assert.deepEqual(JSON.parse(file.metadata['partition-spec'] as string), m['partition-specs'][0]!.fields);
    assert.equal(file.metadata['partition-spec-id'], '0');
    assert.equal(file.metadata['format-version'], '2');
    assert.equal(file.metadata.content, 'data');
    const schema = file.metadata['avro.schema'] as Json;
    assert.equal(schema.name, 'manifest_entry');
    assert.deepEqual(ids(schema), {
      status: 0,
      snapshot_id: 1,
      sequence_number: 3,
      file_sequence_number: 4,
      data_file: 2,
    });
    const dataFile = typeOf(schema, 'data_file');
    assert.deepEqual(ids(dataFile), {
      content: 134,
      file_path: 100,
      file_format: 101,
      partition: 102,
      record_count: 103,
      file_size_in_bytes: 104,
      column_sizes: 108,
      value_counts: 109,
      null_value_counts: 110,
      nan_value_counts: 137,
      lower_bounds: 125,
      upper_bounds: 128,
      key_metadata: 131,
      split_offsets: 132,
      equality_ids: 135,
      sort_order_id: 140,
    });
    const lower = typeOf(dataFile, 'lower_bounds');
    assert.equal(lower.logicalType, 'map');
    assert.deepEqual(ids(lower.items as Json), { key: 126, value: 127 });
    assert.deepEqual(ids(typeOf(dataFile, 'partition')), { id_part: 1000, name_trunc: 1001 });
    assert.equal(typeOf(dataFile, 'split_offsets')['element-id'], 133);

    const byPath = new Map(file.records.map((r) => [(r.data_file as Json).file_path, r]));
    const seven = byPath.get(written[1]!.path)!;
    assert.equal(seven.status, 1);
    assert.equal(seven.sequence_number ?? null, null, 'ADDED entries inherit the sequence number');
    const partition = (seven.data_file as Json).partition as Json;
    assert.deepEqual([partition.id_part, partition.name_trunc ?? null], [7n, null]);
    const bounds = (seven.data_file as Json).lower_bounds as Json[];
    assert.deepEqual(
      bounds.map((b) => b.key),
      [1],
      'no string bound when every name is NULL',
    );
    assert.equal(decodeValue('long', bounds[0]!.value as Uint8Array), 7n);
  });

  it('reads partition values and bounds back as written, and icebird reads the rows', async () => {
    const store = objectStoreFor(table);
    const m = (await readCurrent(store, table))!.metadata;
    const live = await liveDataFiles(store, m);
    assert.deepEqual(
      live.map((f) => f.partition),
      written.map((f) => f.partition),
    );
    assert.deepEqual(live, written);
    assert.deepEqual(await icebirdRows(table), [
      [-3, 'n-3'],
      [5, 'n5'],
      [7, null],
    ]);
  });
});
