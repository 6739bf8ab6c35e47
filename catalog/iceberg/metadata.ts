// Table metadata: a new table's first version, the version after a snapshot, and parsing what a file holds (v1 or v2).
import { randomBytes, randomUUID } from 'node:crypto';
import { NotSupportedError } from '../../engine/index.js';
import { InvalidMetadataError } from './errors.js';
import type { IcebergSchema, IcebergType, PartitionSpec, Snapshot, TableMetadata } from './spec.js';

/** One `PARTITIONED BY` field: a source column id, the partition field's name and its transform. */
export interface NewPartitionField {
  readonly sourceId: number;
  readonly name: string;
  readonly transform: string;
}

/** Partition field ids start here (the spec: 1000 and up). */
const FIRST_PARTITION_FIELD_ID = 1000;

/** Metadata version 1 of a new format-2 table at `location`: schema 0, spec 0, no snapshot. */
export function newTableMetadata(
  location: string,
  schema: IcebergSchema,
  partitionBy: readonly NewPartitionField[],
  properties: Readonly<Record<string, string>> = {},
  now = Date.now(),
): TableMetadata {
  const spec: PartitionSpec = {
    'spec-id': 0,
    fields: partitionBy.map((p, i) => ({
      'source-id': p.sourceId,
      'field-id': FIRST_PARTITION_FIELD_ID + i,
      name: p.name,
      transform: p.transform,
    })),
  };
  return {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': now,
    'last-column-id': maxFieldId(schema.fields.map((f) => ({ id: f.id, type: f.type }))),
    schemas: [{ ...schema, 'schema-id': 0 }],
    'current-schema-id': 0,
    'partition-specs': [spec],
    'default-spec-id': 0,
    // Java's convention: 999 when unpartitioned, so the first partition field is 1000.
    'last-partition-id': FIRST_PARTITION_FIELD_ID - 1 + partitionBy.length,
    properties: { 'write.format.default': 'parquet', ...properties },
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    'default-sort-order-id': 0,
    statistics: [],
    'partition-statistics': [],
  };
}

function maxFieldId(fields: readonly { id: number; type: IcebergType }[]): number {
  let max = 0;
  const visit = (id: number, t: IcebergType) => {
    max = Math.max(max, id);
    if (typeof t === 'string') return;
    if (t.type === 'struct') for (const f of t.fields) visit(f.id, f.type);
    else if (t.type === 'list') visit(t['element-id'], t.element);
    else {
      visit(t['key-id'], t.key);
      visit(t['value-id'], t.value);
    }
  };
  for (const f of fields) visit(f.id, f.type);
  return max;
}

/**
 * The next metadata version: `snapshot` appended and made current on `main`, the sequence number advanced to it,
 * and the snapshot and metadata logs extended (`previousFile` is the version this one replaces).
 */
export function withSnapshot(base: TableMetadata, previousFile: string, snapshot: Snapshot): TableMetadata {
  const id = snapshot['snapshot-id'];
  return {
    ...base,
    'last-sequence-number': snapshot['sequence-number'],
    'last-updated-ms': snapshot['timestamp-ms'],
    'current-snapshot-id': id,
    refs: { ...base.refs, main: { 'snapshot-id': id, type: 'branch' } },
    snapshots: [...(base.snapshots ?? []), snapshot],
    'snapshot-log': [...(base['snapshot-log'] ?? []), { 'snapshot-id': id, 'timestamp-ms': snapshot['timestamp-ms'] }],
    'metadata-log': [
      ...(base['metadata-log'] ?? []),
      { 'metadata-file': previousFile, 'timestamp-ms': base['last-updated-ms'] },
    ],
  };
}

/** The current snapshot, or null for a table without one (`current-snapshot-id` absent, null or -1). */
export function currentSnapshot(m: TableMetadata): Snapshot | null {
  const id = m['current-snapshot-id'];
  if (id === undefined || id === null || id === -1) return null;
  return m.snapshots?.find((s) => s['snapshot-id'] === id) ?? null;
}

/** A random positive snapshot id ≤ 2^53−1: JSON readers in JavaScript (ours, iceberg-js, icebird) keep it exact. */
export function newSnapshotId(): number {
  const b = randomBytes(8);
  const id = Number(b.readBigUInt64BE() & ((1n << 53n) - 1n));
  return id === 0 ? 1 : id;
}

/** The JSON floe writes for `m` (two-space indented, as Java's is readable). */
export function serializeMetadata(m: TableMetadata): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(m, null, 2)}\n`);
}

type Raw = Record<string, unknown>;

/**
 * `text` read from `file` as table metadata: v2 as is; v1 normalized (`schema` → `schemas`, `partition-spec` →
 * `partition-specs`, sequence numbers 0). Fields floe relies on are checked (`InvalidMetadataError` names the file).
 */
export function parseTableMetadata(text: string, file: string): TableMetadata {
  let raw: Raw;
  try {
    raw = JSON.parse(text) as Raw;
  } catch (e) {
    throw new InvalidMetadataError(file, `not JSON (${(e as Error).message})`);
  }
  const fail = (reason: string): never => {
    throw new InvalidMetadataError(file, reason);
  };
  if (raw === null || typeof raw !== 'object') fail('not a JSON object');
  const version = raw['format-version'];
  if (version === 3) throw new NotSupportedError(`Iceberg format-version 3 tables are not supported yet (${file})`);
  if (version !== 1 && version !== 2) fail(`format-version ${String(version)}`);
  for (const key of ['location', 'table-uuid']) if (typeof raw[key] !== 'string') fail(`${key} is missing`);
  const m = version === 1 ? normalizeV1(raw) : raw;
  if (!Array.isArray(m.schemas) || m.schemas.length === 0) fail('schemas is missing');
  const schemas = m.schemas as IcebergSchema[];
  if (!schemas.some((s) => s['schema-id'] === m['current-schema-id'] && Array.isArray(s.fields))) {
    fail(`current-schema-id ${String(m['current-schema-id'])} names no schema`);
  }
  const specs = m['partition-specs'] as PartitionSpec[] | undefined;
  if (!Array.isArray(specs) || !specs.some((s) => s['spec-id'] === m['default-spec-id'])) {
    fail(`default-spec-id ${String(m['default-spec-id'])} names no partition spec`);
  }
  const snapshots = (m.snapshots ?? []) as Raw[];
  if (!Array.isArray(snapshots)) fail('snapshots is not a list');
  for (const s of snapshots) {
    if (typeof s['snapshot-id'] !== 'number') fail('a snapshot has no snapshot-id');
    if (typeof s['manifest-list'] !== 'string') {
      throw new NotSupportedError(`Iceberg v1 snapshots without a manifest list are not supported yet (${file})`);
    }
  }
  const metadata = m as unknown as TableMetadata;
  const current = metadata['current-snapshot-id'];
  if (current !== undefined && current !== null && current !== -1 && currentSnapshot(metadata) === null) {
    fail(`current-snapshot-id ${current} names no snapshot`);
  }
  return metadata;
}

/** A v1 table's metadata in the v2 shape floe reads (the fields v1 may leave out take their v1 meaning). */
function normalizeV1(raw: Raw): Raw {
  const schemas = raw.schemas ?? (raw.schema ? [{ 'schema-id': 0, ...(raw.schema as Raw) }] : undefined);
  const specs =
    raw['partition-specs'] ?? (raw['partition-spec'] ? [{ 'spec-id': 0, fields: raw['partition-spec'] }] : undefined);
  const specFields = ((specs as PartitionSpec[] | undefined) ?? []).flatMap((s) => s.fields);
  return {
    ...raw,
    schemas,
    'current-schema-id': raw['current-schema-id'] ?? 0,
    'partition-specs': specs,
    'default-spec-id': raw['default-spec-id'] ?? 0,
    'last-partition-id': raw['last-partition-id'] ?? Math.max(999, ...specFields.map((f) => f['field-id'])),
    'last-sequence-number': 0,
    'sort-orders': raw['sort-orders'] ?? [{ 'order-id': 0, fields: [] }],
    'default-sort-order-id': raw['default-sort-order-id'] ?? 0,
    snapshots: ((raw.snapshots ?? []) as Raw[]).map((s) => ({ 'sequence-number': 0, ...s })),
  };
}
