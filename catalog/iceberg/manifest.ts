// Manifests (`*-m0.avro`): encode `manifest_entry` records of data files, decode v1 and v2 manifests to `DataFile`s.
import { NotSupportedError } from '../../engine/index.js';
import { decodeAvroFile, encodeAvroFile } from './avro-container.js';
import { decodeValue, encodeValue } from './bounds.js';
import { bytesOrNull } from './manifest-list.js';
import { manifestEntrySchema, type PartitionColumn } from './manifest-schemas.js';
import { encodePartitionValue } from './partition-values.js';
import type { DataFile, IcebergSchema, IcebergType, IcebergValue, PartitionSpec } from './spec.js';

export const STATUS_EXISTING = 0;
export const STATUS_ADDED = 1;
export const STATUS_DELETED = 2;

/** One entry with its sequence numbers resolved (inherited from the manifest list where the entry has none). */
export interface ManifestEntry {
  readonly status: number;
  readonly snapshotId: number | bigint;
  readonly sequenceNumber: number;
  readonly fileSequenceNumber: number;
  readonly file: DataFile;
}

/** What an entry written anew says: ADDED entries leave sequence numbers null, to inherit the list's. */
export interface EntryToWrite {
  readonly status: number;
  readonly snapshotId: number | bigint;
  readonly sequenceNumber: number | null;
  readonly fileSequenceNumber: number | null;
  readonly file: DataFile;
}

/** The table's schema and one of its partition specs, as a manifest's header and records need them. */
export interface ManifestContext {
  readonly schema: IcebergSchema;
  readonly spec: PartitionSpec;
  /** The spec's fields with their result types (`partitionColumns`). */
  readonly partition: readonly PartitionColumn[];
}

/** The Avro bytes of a v2 data manifest with the header Java writes (plus `schema-id`, which the spec requires). */
export function encodeManifest(entries: readonly EntryToWrite[], ctx: ManifestContext): Uint8Array {
  const types = leafTypes([ctx.schema]);
  const records = entries.map((e) => ({
    status: e.status,
    snapshot_id: e.snapshotId,
    sequence_number: e.sequenceNumber,
    file_sequence_number: e.fileSequenceNumber,
    data_file: dataFileRecord(e.file, ctx.partition, types),
  }));
  return encodeAvroFile(manifestEntrySchema(ctx.partition), records, {
    schema: JSON.stringify(ctx.schema),
    'schema-id': String(ctx.schema['schema-id']),
    'partition-spec': JSON.stringify(ctx.spec.fields),
    'partition-spec-id': String(ctx.spec['spec-id']),
    'format-version': '2',
    content: 'data',
  });
}

function dataFileRecord(f: DataFile, partition: readonly PartitionColumn[], types: ReadonlyMap<number, IcebergType>) {
  const counts = (m: Readonly<Record<number, number>> | undefined) =>
    m === undefined ? null : Object.entries(m).map(([k, v]) => ({ key: Number(k), value: v }));
  const bounds = (m: Readonly<Record<number, IcebergValue>> | undefined) =>
    m === undefined
      ? null
      : Object.entries(m).flatMap(([k, v]) => {
          const type = types.get(Number(k));
          return type === undefined ? [] : [{ key: Number(k), value: Buffer.from(encodeValue(type, v)) }];
        });
  return {
    content: 0,
    file_path: f.path,
    file_format: f.format,
    partition: Object.fromEntries(
      partition.map((p, i) => [p.name, encodePartitionValue(p.type, f.partition[i] ?? null)]),
    ),
    record_count: f.recordCount,
    file_size_in_bytes: f.fileSizeBytes,
    column_sizes: counts(f.columnSizes),
    value_counts: counts(f.valueCounts),
    null_value_counts: counts(f.nullValueCounts),
    nan_value_counts: counts(f.nanValueCounts),
    lower_bounds: bounds(f.lowerBounds),
    upper_bounds: bounds(f.upperBounds),
    key_metadata: null,
    split_offsets: f.splitOffsets ?? null,
    equality_ids: null,
    sort_order_id: null,
  };
}

type Raw = Record<string, unknown>;

/** What a manifest's entries inherit from its manifest list record (v1: sequence number 0). */
export interface Inherited {
  readonly snapshotId: number | bigint;
  readonly sequenceNumber: number;
  /** The list record's `partition_spec_id` (the manifest's header says it too, when the writer wrote one). */
  readonly specId: number;
}

/**
 * Every entry of a manifest (DELETED ones too; the caller skips them), bounds decoded by the types of `schemas`
 * (a bound of a column no schema knows is left out). Delete manifests and delete files are refused.
 */
export function decodeManifest(
  bytes: Uint8Array,
  name: string,
  schemas: readonly IcebergSchema[],
  inherited: Inherited,
): ManifestEntry[] {
  const file = decodeAvroFile(bytes, name);
  if (file.metadata.content === 'deletes') {
    throw new NotSupportedError(`Iceberg delete files are not supported yet (delete manifest ${name})`);
  }
  const specId = inherited.specId;
  const partitionFields = partitionAvroFields(file.schema);
  const types = leafTypes(schemas);
  return file.records.map((r) => {
    const e = r as Raw;
    const status = Number(e.status);
    // Sequence numbers are inherited only by ADDED entries; v1 manifests have none (all 0).
    const own = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const seq = own(e.sequence_number) ?? inherited.sequenceNumber;
    return {
      status,
      snapshotId: (e.snapshot_id as number | bigint | null) ?? inherited.snapshotId,
      sequenceNumber: seq,
      fileSequenceNumber: own(e.file_sequence_number) ?? seq,
      file: dataFileOf(e.data_file as Raw, name, specId, partitionFields, types),
    };
  });
}

function dataFileOf(
  d: Raw,
  name: string,
  specId: number,
  partitionFields: readonly { name: string; type: unknown }[],
  types: ReadonlyMap<number, IcebergType>,
): DataFile {
  if (d.content !== undefined && d.content !== null && Number(d.content) !== 0) {
    throw new NotSupportedError(`Iceberg delete files are not supported yet (${String(d.file_path)} in ${name})`);
  }
  const format = String(d.file_format).toUpperCase();
  if (format !== 'PARQUET')
    throw new NotSupportedError(`Iceberg ${format} data files are not supported yet (${String(d.file_path)})`);
  const part = d.partition as Raw;
  return {
    path: String(d.file_path),
    format: 'PARQUET',
    recordCount: Number(d.record_count),
    fileSizeBytes: Number(d.file_size_in_bytes),
    specId,
    partition: partitionFields.map((f) => partitionValueOf(f.type, part[f.name])),
    ...optionalStats(d, types),
  };
}

function optionalStats(d: Raw, types: ReadonlyMap<number, IcebergType>): Partial<DataFile> {
  const out: Record<string, unknown> = {};
  const counts = (v: unknown) =>
    Object.fromEntries((v as { key: number; value: unknown }[]).map((p) => [p.key, Number(p.value)]));
  const bounds = (v: unknown) => {
    const m: Record<number, IcebergValue> = {};
    for (const { key, value } of v as { key: number; value: Uint8Array }[]) {
      const type = types.get(key);
      if (type !== undefined) m[key] = decodeValue(type, new Uint8Array(value));
    }
    return m;
  };
  const maps = [
    ['column_sizes', 'columnSizes', counts],
    ['value_counts', 'valueCounts', counts],
    ['null_value_counts', 'nullValueCounts', counts],
    ['nan_value_counts', 'nanValueCounts', counts],
    ['lower_bounds', 'lowerBounds', bounds],
    ['upper_bounds', 'upperBounds', bounds],
  ] as const;
  for (const [raw, key, decode] of maps) if (d[raw] !== null && d[raw] !== undefined) out[key] = decode(d[raw]);
  if (Array.isArray(d.split_offsets)) out.splitOffsets = d.split_offsets.map(Number);
  return out;
}

/** The partition record's fields in the writer's order, each with its Avro type (the union's non-null branch). */
function partitionAvroFields(schema: Raw): { name: string; type: unknown }[] {
  const field = (record: unknown, name: string) =>
    ((record as Raw).fields as Raw[] | undefined)?.find((f) => f.name === name)?.type;
  const partition = field(field(schema, 'data_file'), 'partition') as Raw | undefined;
  if (partition === undefined) throw new Error('manifest schema has no data_file.partition record');
  return (partition.fields as Raw[]).map((f) => {
    const t = Array.isArray(f.type) ? f.type.find((b) => b !== 'null') : f.type;
    return { name: String(f.name), type: t };
  });
}

/** An Avro-decoded partition value as an `IcebergValue` (longs as bigints, decimals as unscaled bigints). */
function partitionValueOf(avroType: unknown, v: unknown): IcebergValue | null {
  if (v === null || v === undefined) return null;
  const t = (typeof avroType === 'string' ? { type: avroType } : avroType) as Raw;
  if (t.type === 'long') return BigInt(v as number | bigint);
  if (t.logicalType === 'decimal')
    return decodeValue(`decimal(${t.precision}, ${t.scale})`, new Uint8Array(v as Buffer));
  if (v instanceof Uint8Array) return bytesOrNull(v);
  return v as IcebergValue;
}

/** Every primitive field's type by id, through structs, lists and maps, over all `schemas`. */
export function leafTypes(schemas: readonly IcebergSchema[]): Map<number, IcebergType> {
  const out = new Map<number, IcebergType>();
  const visit = (id: number, t: IcebergType) => {
    if (typeof t === 'string') out.set(id, t);
    else if (t.type === 'struct') for (const f of t.fields) visit(f.id, f.type);
    else if (t.type === 'list') visit(t['element-id'], t.element);
    else {
      visit(t['key-id'], t.key);
      visit(t['value-id'], t.value);
    }
  };
  for (const s of schemas) for (const f of s.fields) visit(f.id, f.type);
  return out;
}
