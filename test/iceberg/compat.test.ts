// Tables floe did not write: a v1 table as Java/Spark lay it out (deflate Avro, v1 schemas), delete files, bad metadata.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import avro from 'avsc';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { InvalidMetadataError } from '../../catalog/iceberg/errors.js';
import { currentManifests, liveDataFiles } from '../../catalog/iceberg/live-files.js';
import { encodeManifestList } from '../../catalog/iceberg/manifest-list.js';
import { parseTableMetadata, serializeMetadata, withSnapshot } from '../../catalog/iceberg/metadata.js';
import { readCurrent } from '../../catalog/iceberg/warehouse.js';
import { NotSupportedError, objectStoreFor } from '../../engine/index.js';
import { SCHEMA, tempWarehouse, writeDataFile } from './helpers.js';

/** An Avro container written by avsc's own encoder (the reference writer), with `codec`. */
async function avscFile(schema: object, records: object[], codec: string, meta: Record<string, string>) {
  const metadata = Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, Buffer.from(v)]));
  // avsc's types lack `metadata`, which its encoder takes (the header's key-value pairs).
  const options = { codec, metadata };
  const encoder = new avro.streams.BlockEncoder(schema as avro.Schema, options);
  const chunks: Buffer[] = [];
  encoder.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => encoder.on('end', resolve));
  for (const r of records) encoder.write(r);
  encoder.end();
  await done;
  return Buffer.concat(chunks);
}

const opt = (name: string, type: unknown, id: number) => ({
  name,
  type: ['null', type],
  default: null,
  'field-id': id,
});
const map = (name: string, id: number, k: number, v: number, value: string) =>
  opt(
    name,
    {
      type: 'array',
      logicalType: 'map',
      items: {
        type: 'record',
        name: `k${k}_v${v}`,
        fields: [
          { name: 'key', type: 'int', 'field-id': k },
          { name: 'value', type: value, 'field-id': v },
        ],
      },
    },
    id,
  );

// Java's V1Metadata schemas (abridged to the fields a v1 writer always sets).
const V1_LIST = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    opt('added_snapshot_id', 'long', 503),
    opt('added_data_files_count', 'int', 504),
    opt('existing_data_files_count', 'int', 505),
    opt('deleted_data_files_count', 'int', 506),
  ],
};
const V1_ENTRY = {
  type: 'record',
  name: 'manifest_entry',
  fields: [
    { name: 'status', type: 'int', 'field-id': 0 },
    { name: 'snapshot_id', type: 'long', 'field-id': 1 },
    {
      name: 'data_file',
      'field-id': 2,
      type: {
        type: 'record',
        name: 'r2',
        fields: [
          { name: 'file_path', type: 'string', 'field-id': 100 },
          { name: 'file_format', type: 'string', 'field-id': 101 },
          { name: 'partition', type: { type: 'record', name: 'r102', fields: [] }, 'field-id': 102 },
          { name: 'record_count', type: 'long', 'field-id': 103 },
          { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
          { name: 'block_size_in_bytes', type: 'long', 'field-id': 105 },
          map('value_counts', 109, 119, 120, 'long'),
          map('lower_bounds', 125, 126, 127, 'bytes'),
          map('upper_bounds', 128, 129, 130, 'bytes'),
        ],
      },
    },
  ],
};

describe('Iceberg tables written elsewhere', () => {
  let wh: Awaited<ReturnType<typeof tempWarehouse>>;
  before(async () => {
    wh = await tempWarehouse();
  });
  after(() => wh.dispose());

  it('reads a v1 table (singular schema and partition-spec, deflate v1 Avro, a DELETED entry) and refuses to write it', async () => {
    const table = `${wh.url}/s/v1`;
    const store = objectStoreFor(table);
    const file = await writeDataFile(table, [3, 4, 14]);
    const le = (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(n);
      return b;
    };
    const entry = (status: number, path: string) => ({
      status,
      snapshot_id: 42,
      data_file: {
        file_path: path,
        file_format: 'parquet',
        partition: {},
        record_count: 3,
        file_size_in_bytes: file.fileSizeBytes,
        block_size_in_bytes: 67108864,
        value_counts: [{ key: 1, value: 3 }],
        lower_bounds: [{ key: 1, value: le(3n) }],
        upper_bounds: [{ key: 1, value: le(14n) }],
      },
    });
    const manifest = await avscFile(
      V1_ENTRY,
      [entry(1, file.path), entry(2, `${table}/data/gone.parquet`)],
      'deflate',
      {
        schema: JSON.stringify({ type: 'struct', 'schema-id': 0, fields: SCHEMA.fields }),
        'partition-spec': '[]',
        'partition-spec-id': '0',
        'format-version': '1',
      },
    );
    const dir = fileURLToPath(`${table}/metadata`);
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/m0.avro`, manifest);
    const list = await avscFile(
      V1_LIST,
      [
        {
          manifest_path: `${table}/metadata/m0.avro`,
          manifest_length: manifest.length,
          partition_spec_id: 0,
          added_snapshot_id: 42,
          added_data_files_count: 1,
          existing_data_files_count: 0,
          deleted_data_files_count: 1,
        },
      ],
      'deflate',
      { 'snapshot-id': '42', 'format-version': '1' },
    );
    await writeFile(`${dir}/snap-42.avro`, list);
    // Java's random ids exceed 2^53: JSON.parse rounds both mentions alike, which is all floe needs to read.
    const metadata = {
      'format-version': 1,
      'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',
      location: table,
      'last-updated-ms': 1700000000000,
      'last-column-id': 2,
      schema: { type: 'struct', fields: SCHEMA.fields },
      'partition-spec': [],
      properties: {},
      'current-snapshot-id': 42,
      snapshots: [
        {
          'snapshot-id': 42,
          'timestamp-ms': 1700000000000,
          'manifest-list': `${table}/metadata/snap-42.avro`,
          summary: { operation: 'append' },
        },
      ],
    };
    await writeFile(`${dir}/v1.metadata.json`, JSON.stringify(metadata));
    await writeFile(`${dir}/version-hint.text`, '1');

    const current = await readCurrent(store, table);
    assert.equal(current?.version, 1);
    const m = current!.metadata;
    assert.deepEqual(m.schemas[0]!.fields, SCHEMA.fields);
    assert.deepEqual(m['partition-specs'], [{ 'spec-id': 0, fields: [] }]);
    assert.equal(m['last-partition-id'], 999);
    const [listed] = await currentManifests(store, m);
    assert.deepEqual([listed!.sequence_number, listed!.content, listed!.deleted_files_count], [0, 0, 1]);
    const live = await liveDataFiles(store, m);
    assert.equal(live.length, 1, 'the DELETED entry is skipped');
    assert.deepEqual(
      [live[0]!.path, live[0]!.recordCount, live[0]!.lowerBounds, live[0]!.upperBounds],
      [file.path, 3, { 1: 3n }, { 1: 14n }],
    );
    // Not icebird here: its deflate reader overflows the stack on Java-style deflate blocks (reference §3).
    await assert.rejects(
      commitFiles(store, table, 'append', [file]),
      (e) => e instanceof NotSupportedError && /format-version 1/.test(e.message),
    );
  });

  it('refuses delete manifests as not supported', async () => {
    const table = `${wh.url}/s/deletes`;
    const store = objectStoreFor(table);
    const base = await createTable(store, table, SCHEMA, []);
    const listLocation = `${table}/metadata/snap-7.avro`;
    const record = {
      manifest_path: `${table}/metadata/d.avro`,
      manifest_length: 1,
      partition_spec_id: 0,
      content: 1,
      sequence_number: 1,
      min_sequence_number: 1,
      added_snapshot_id: 7,
      added_files_count: 1,
      existing_files_count: 0,
      deleted_files_count: 0,
      added_rows_count: 1,
      existing_rows_count: 0,
      deleted_rows_count: 0,
      partitions: null,
      key_metadata: null,
    };
    await store.put(
      listLocation,
      encodeManifestList([record], { snapshotId: 7, parentSnapshotId: null, sequenceNumber: 1 }),
    );
    const snapshot = {
      'snapshot-id': 7,
      'sequence-number': 1,
      'timestamp-ms': Date.now(),
      'manifest-list': listLocation,
      summary: { operation: 'delete' },
    };
    await store.put(
      `${table}/metadata/v2.metadata.json`,
      serializeMetadata(withSnapshot(base.metadata, base.metadataLocation, snapshot)),
    );
    const m = (await readCurrent(store, table))!.metadata;
    await assert.rejects(
      liveDataFiles(store, m),
      (e) => e instanceof NotSupportedError && /Iceberg delete files are not supported/.test(e.message),
    );
  });

  it('names the file when metadata is not usable', () => {
    assert.throws(
      () => parseTableMetadata('{', 'file:///t/metadata/v3.metadata.json'),
      (e) =>
        e instanceof InvalidMetadataError &&
        e.message.startsWith('file:///t/metadata/v3.metadata.json is not valid Iceberg table metadata: not JSON'),
    );
    const noSchema = {
      'format-version': 2,
      location: 'x',
      'table-uuid': 'u',
      schemas: [{ 'schema-id': 1, fields: [] }],
      'current-schema-id': 0,
    };
    assert.throws(
      () => parseTableMetadata(JSON.stringify(noSchema), 'v9.metadata.json'),
      /v9.metadata.json .*current-schema-id 0 names no schema/,
    );
    assert.throws(() => parseTableMetadata('{"format-version":3}', 'v1.metadata.json'), NotSupportedError);
  });
});
