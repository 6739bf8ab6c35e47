// The manifests one commit writes: ADDED entries of the new files, DELETED entries of the files an overwrite replaces.
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from '../../engine/index.js';
import {
  type EntryToWrite,
  encodeManifest,
  type ManifestEntry,
  STATUS_ADDED,
  STATUS_DELETED,
  type STATUS_EXISTING,
} from './manifest.js';
import type { ManifestFile } from './manifest-list.js';
import { partitionColumns, partitionSummaries } from './partition-values.js';
import type { DataFile, PartitionSpec, TableMetadata } from './spec.js';
import { joinLocation } from './warehouse.js';

/** A manifest written, with its list record minus what depends on the base it is committed on. */
export interface WrittenManifest {
  readonly location: string;
  /** The `manifest_file` record for a snapshot with sequence number `seq`. */
  readonly record: (seq: number) => ManifestFile;
}

/** Writes one manifest of ADDED entries per partition spec among `files` (none when there are no files). */
export async function writeAddedManifests(
  store: ObjectStore,
  table: string,
  metadata: TableMetadata,
  snapshotId: number,
  files: readonly DataFile[],
): Promise<WrittenManifest[]> {
  const out: WrittenManifest[] = [];
  for (const [spec, group] of bySpec(metadata, files)) {
    // Sequence numbers left null: ADDED entries inherit the list's, so a retry on a newer base reuses the file.
    const entries = group.map((file) => ({
      status: STATUS_ADDED,
      snapshotId,
      sequenceNumber: null,
      fileSequenceNumber: null,
      file,
    }));
    const { location, length, summaries } = await writeManifest(store, table, metadata, spec, entries);
    const rows = group.reduce((n, f) => n + f.recordCount, 0);
    out.push({
      location,
      record: (seq) => ({
        ...emptyRecord(location, length, spec['spec-id'], seq, snapshotId),
        min_sequence_number: seq,
        added_files_count: group.length,
        added_rows_count: rows,
        partitions: summaries,
      }),
    });
  }
  return out;
}

/**
 * Writes one manifest per spec carrying the live `entries` into the new snapshot: as DELETED (the files an overwrite
 * replaces) or as EXISTING (live files an overwrite keeps: ones appended after the snapshot the writer read).
 */
export async function writeCarriedManifests(
  store: ObjectStore,
  table: string,
  metadata: TableMetadata,
  snapshotId: number,
  seq: number,
  entries: readonly ManifestEntry[],
  status: typeof STATUS_DELETED | typeof STATUS_EXISTING,
): Promise<{ location: string; record: ManifestFile }[]> {
  const out: { location: string; record: ManifestFile }[] = [];
  const bySpecId = groupBy(entries, (e) => e.file.specId);
  const deleted = status === STATUS_DELETED;
  for (const [specId, group] of bySpecId) {
    const spec = specOf(metadata, specId);
    // Carried entries state their file's sequence numbers (the spec: only ADDED ones inherit); an EXISTING one
    // keeps the snapshot that added it, a DELETED one names the snapshot that removes it.
    const toWrite: EntryToWrite[] = group.map((e) => ({
      status,
      snapshotId: deleted ? snapshotId : e.snapshotId,
      sequenceNumber: e.sequenceNumber,
      fileSequenceNumber: e.fileSequenceNumber,
      file: e.file,
    }));
    const { location, length, summaries } = await writeManifest(store, table, metadata, spec, toWrite);
    const files = group.length;
    const rows = group.reduce((n, e) => n + e.file.recordCount, 0);
    out.push({
      location,
      record: {
        ...emptyRecord(location, length, specId, seq, snapshotId),
        min_sequence_number: Math.min(...group.map((e) => e.sequenceNumber)),
        ...(deleted
          ? { deleted_files_count: files, deleted_rows_count: rows }
          : { existing_files_count: files, existing_rows_count: rows }),
        partitions: summaries,
      },
    });
  }
  return out;
}

async function writeManifest(
  store: ObjectStore,
  table: string,
  metadata: TableMetadata,
  spec: PartitionSpec,
  entries: readonly EntryToWrite[],
) {
  const schema = metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id'])!;
  const partition = partitionColumns(schema, spec);
  const bytes = encodeManifest(entries, { schema, spec, partition });
  const location = joinLocation(table, 'metadata', `${randomUUID()}-m0.avro`);
  await store.put(location, bytes);
  const summaries = partitionSummaries(
    entries.map((e) => e.file),
    partition,
  );
  return { location, length: bytes.length, summaries };
}

function emptyRecord(path: string, length: number, specId: number, seq: number, snapshotId: number): ManifestFile {
  return {
    manifest_path: path,
    manifest_length: length,
    partition_spec_id: specId,
    content: 0,
    sequence_number: seq,
    min_sequence_number: seq,
    added_snapshot_id: snapshotId,
    added_files_count: 0,
    existing_files_count: 0,
    deleted_files_count: 0,
    added_rows_count: 0,
    existing_rows_count: 0,
    deleted_rows_count: 0,
    partitions: null,
    key_metadata: null,
  };
}

function bySpec(metadata: TableMetadata, files: readonly DataFile[]): [PartitionSpec, DataFile[]][] {
  return [...groupBy(files, (f) => f.specId)].map(([id, group]) => [specOf(metadata, id), group]);
}

function specOf(metadata: TableMetadata, specId: number): PartitionSpec {
  const spec = metadata['partition-specs'].find((s) => s['spec-id'] === specId);
  if (spec === undefined) throw new Error(`partition spec ${specId} is not in the table's metadata`);
  return spec;
}

/** `Map.groupBy` (Node 21+), for Node 20. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = out.get(k);
    if (group === undefined) out.set(k, [item]);
    else group.push(item);
  }
  return out;
}
