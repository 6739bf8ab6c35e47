// The live data files of a table's current snapshot: its manifest list, then its manifests (read in parallel, cached).
import type { ObjectStore } from '../../engine/index.js';
import { decodeManifest, type ManifestEntry, STATUS_DELETED } from './manifest.js';
import { checkDataManifest, decodeManifestList, type ManifestFile } from './manifest-list.js';
import { currentSnapshot } from './metadata.js';
import type { DataFile, TableMetadata } from './spec.js';

/** Manifests read at once. */
const MANIFEST_READS = 16;
/** Entries kept decoded across reads (manifests never change once written; appends reuse all but one). */
const CACHED_ENTRIES = 200_000;

const cache = new Map<string, ManifestEntry[]>();
let cachedEntries = 0;

/** The records of the manifest list at `location` (delete manifests refused). */
export async function readManifestList(store: ObjectStore, location: string): Promise<ManifestFile[]> {
  const files = decodeManifestList(await store.read(location), location);
  files.forEach(checkDataManifest);
  return files;
}

/** The manifest list of the current snapshot, or an empty list when the table has no snapshot. */
export async function currentManifests(store: ObjectStore, metadata: TableMetadata): Promise<ManifestFile[]> {
  const snapshot = currentSnapshot(metadata);
  return snapshot === null ? [] : readManifestList(store, snapshot['manifest-list']);
}

/** The live (ADDED or EXISTING) entries of `manifests`, in list order, with their sequence numbers. */
export async function liveEntries(
  store: ObjectStore,
  metadata: TableMetadata,
  manifests: readonly ManifestFile[],
): Promise<ManifestEntry[]> {
  const out: ManifestEntry[][] = new Array(manifests.length);
  let next = 0;
  const worker = async () => {
    while (next < manifests.length) {
      const i = next++;
      out[i] = (await readManifest(store, metadata, manifests[i]!)).filter((e) => e.status !== STATUS_DELETED);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MANIFEST_READS, manifests.length) }, worker));
  return out.flat();
}

/** The data files a reader of the current snapshot scans (reads only that snapshot's list and manifests). */
export async function liveDataFiles(store: ObjectStore, metadata: TableMetadata): Promise<DataFile[]> {
  const entries = await liveEntries(store, metadata, await currentManifests(store, metadata));
  return entries.map((e) => e.file);
}

async function readManifest(store: ObjectStore, metadata: TableMetadata, m: ManifestFile): Promise<ManifestEntry[]> {
  // Keyed by path and the schemas decoding the bounds (a schema change re-reads).
  const key = `${m.manifest_path}\0${metadata['table-uuid']}\0${metadata.schemas.length}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const entries = decodeManifest(await store.read(m.manifest_path), m.manifest_path, metadata.schemas, {
    snapshotId: m.added_snapshot_id,
    sequenceNumber: m.sequence_number,
    specId: m.partition_spec_id,
  });
  remember(key, entries);
  return entries;
}

function remember(key: string, entries: ManifestEntry[]): void {
  if (entries.length > CACHED_ENTRIES) return;
  cache.set(key, entries);
  cachedEntries += entries.length;
  for (const [k, v] of cache) {
    if (cachedEntries <= CACHED_ENTRIES) break;
    cache.delete(k);
    cachedEntries -= v.length;
  }
}
