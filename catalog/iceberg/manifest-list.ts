// Manifest lists (`snap-*.avro`): encode a snapshot's `manifest_file` records, decode v1 and v2 lists.
import { NotSupportedError } from '../../engine/index.js';
import { decodeAvroFile, encodeAvroFile } from './avro-container.js';
import { MANIFEST_LIST_SCHEMA } from './manifest-schemas.js';

/** A partition field's summary over one manifest (bounds in Appendix D bytes). */
export interface FieldSummary {
  readonly contains_null: boolean;
  readonly contains_nan: boolean | null;
  readonly lower_bound: Uint8Array | null;
  readonly upper_bound: Uint8Array | null;
}

/**
 * One `manifest_file` record, in the v2 list's own field names (so a parent's records are copied unchanged).
 * Longs are numbers, or bigints beyond 2^53 (Java's random snapshot ids).
 */
export interface ManifestFile {
  readonly manifest_path: string;
  readonly manifest_length: number;
  readonly partition_spec_id: number;
  /** 0 data, 1 deletes. */
  readonly content: number;
  readonly sequence_number: number;
  readonly min_sequence_number: number;
  readonly added_snapshot_id: number | bigint;
  readonly added_files_count: number;
  readonly existing_files_count: number;
  readonly deleted_files_count: number;
  readonly added_rows_count: number;
  readonly existing_rows_count: number;
  readonly deleted_rows_count: number;
  readonly partitions: readonly FieldSummary[] | null;
  readonly key_metadata: Uint8Array | null;
}

export interface ManifestListHeader {
  readonly snapshotId: number;
  readonly parentSnapshotId: number | null;
  readonly sequenceNumber: number;
}

/** The Avro bytes of a v2 manifest list, with the header keys Java's V2Writer writes. */
export function encodeManifestList(files: readonly ManifestFile[], header: ManifestListHeader): Uint8Array {
  return encodeAvroFile(MANIFEST_LIST_SCHEMA, files.map(withBuffers), {
    'snapshot-id': String(header.snapshotId),
    'parent-snapshot-id': header.parentSnapshotId === null ? 'null' : String(header.parentSnapshotId),
    'sequence-number': String(header.sequenceNumber),
    'format-version': '2',
  });
}

/** avsc writes `bytes` from Buffers only (records read back hold Uint8Arrays). */
function withBuffers(f: ManifestFile): unknown {
  const buf = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b));
  return {
    ...f,
    partitions:
      f.partitions?.map((p) => ({ ...p, lower_bound: buf(p.lower_bound), upper_bound: buf(p.upper_bound) })) ?? null,
    key_metadata: buf(f.key_metadata),
  };
}

type Raw = Record<string, unknown>;

/**
 * The records of a manifest list, normalized to v2: a v1 list (Java/Spark) has no content, sequence numbers
 * (they are 0) or required counts (a missing count reads as 0), and names the counts `*_data_files_count`.
 */
export function decodeManifestList(bytes: Uint8Array, name: string): ManifestFile[] {
  return decodeAvroFile(bytes, name).records.map((r) => normalize(r as Raw));
}

function normalize(r: Raw): ManifestFile {
  const num = (...keys: string[]) => {
    for (const k of keys) if (r[k] !== null && r[k] !== undefined) return Number(r[k]);
    return 0;
  };
  return {
    manifest_path: String(r.manifest_path),
    manifest_length: num('manifest_length'),
    partition_spec_id: num('partition_spec_id'),
    content: num('content'),
    sequence_number: num('sequence_number'),
    min_sequence_number: num('min_sequence_number'),
    added_snapshot_id: (r.added_snapshot_id as number | bigint | null) ?? 0,
    added_files_count: num('added_files_count', 'added_data_files_count'),
    existing_files_count: num('existing_files_count', 'existing_data_files_count'),
    deleted_files_count: num('deleted_files_count', 'deleted_data_files_count'),
    added_rows_count: num('added_rows_count'),
    existing_rows_count: num('existing_rows_count'),
    deleted_rows_count: num('deleted_rows_count'),
    partitions: ((r.partitions as Raw[] | null) ?? null)?.map(summary) ?? null,
    key_metadata: bytesOrNull(r.key_metadata),
  };
}

function summary(s: Raw): FieldSummary {
  return {
    contains_null: Boolean(s.contains_null),
    contains_nan: (s.contains_nan as boolean | null | undefined) ?? null,
    lower_bound: bytesOrNull(s.lower_bound),
    upper_bound: bytesOrNull(s.upper_bound),
  };
}

/** A copy as a plain Uint8Array (avsc hands out Buffers over the file's bytes). */
export function bytesOrNull(v: unknown): Uint8Array | null {
  return v instanceof Uint8Array ? new Uint8Array(v) : null;
}

/** Refuses a delete manifest: floe reads and writes data manifests only. */
export function checkDataManifest(file: ManifestFile): void {
  if (file.content !== 0) {
    throw new NotSupportedError(`Iceberg delete files are not supported yet (delete manifest ${file.manifest_path})`);
  }
}
