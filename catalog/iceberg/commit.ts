// Atomic commits to a Hadoop-layout table: create (v1), and one new snapshot per write (append or overwrite).
import { randomUUID } from 'node:crypto';
import { NotSupportedError, type ObjectStore, PreconditionFailedError, type WriteMode } from '../../engine/index.js';
import { type WrittenManifest, writeAddedManifests, writeCarriedManifests } from './commit-manifests.js';
import { CommitConflictError, NoSuchTableError, TableExistsError, TableNotEmptyError } from './errors.js';
import { currentManifests, liveEntries } from './live-files.js';
import { STATUS_DELETED, STATUS_EXISTING } from './manifest.js';
import { encodeManifestList, type ManifestFile } from './manifest-list.js';
import {
  currentSnapshot,
  type NewPartitionField,
  newSnapshotId,
  newTableMetadata,
  serializeMetadata,
  withSnapshot,
} from './metadata.js';
import { snapshotSummary } from './snapshot-summary.js';
import type { DataFile, IcebergSchema, Snapshot } from './spec.js';
import { withTableLock } from './table-lock.js';
import { type CurrentMetadata, joinLocation, readCurrent, versionFile } from './warehouse.js';

/** Attempts before a commit gives up on a table other writers keep changing. */
export const MAX_COMMIT_ATTEMPTS = 20;

/** Counters of this thread's commits: versions lost to another writer and retried (tests, metrics). */
export const commitStats = { commits: 0, conflicts: 0 };

/** A commit's outcome: the version it published and the snapshot's live data files (no re-read needed). */
export interface CommitResult extends CurrentMetadata {
  readonly snapshotId: number;
  readonly files: readonly DataFile[];
}

/**
 * Creates the table: `v1.metadata.json` put only if absent (`TableExistsError` when a table is there), then the
 * version hint. `partitionBy` source ids are `schema`'s field ids.
 */
export function createTable(
  store: ObjectStore,
  location: string,
  schema: IcebergSchema,
  partitionBy: readonly NewPartitionField[],
  properties: Readonly<Record<string, string>> = {},
): Promise<CurrentMetadata> {
  return withTableLock(location, async () => {
    // Checked first as well: a store that ignores If-None-Match (s3rver) would let the put replace a table.
    if ((await readCurrent(store, location)) !== null) throw new TableExistsError(location);
    const metadata = newTableMetadata(location, schema, partitionBy, properties);
    const metadataLocation = versionFile(location, 1);
    try {
      await store.put(metadataLocation, serializeMetadata(metadata), { ifAbsent: true });
    } catch (e) {
      throw e instanceof PreconditionFailedError ? new TableExistsError(location) : e;
    }
    await writeHint(store, location, 1);
    return { version: 1, metadataLocation, metadata };
  });
}

/**
 * Publishes `files` (Parquet files already written under the table) as one new snapshot: `append` adds them,
 * `overwrite` replaces every live file with them, `error_if_not_empty` appends unless the table holds a row
 * (`TableNotEmptyError`). Publication is the conditional put of `v(N+1).metadata.json`; losing it to another
 * process re-reads the base and retries (`CommitConflictError` after MAX_COMMIT_ATTEMPTS). Commits in this process
 * are serialized per table. On S3 stores that ignore If-None-Match (s3rver) only that in-process order holds.
 * A failed commit removes the manifests and lists it wrote; the data files are the caller's.
 */
export function commitFiles(
  store: ObjectStore,
  location: string,
  mode: WriteMode,
  files: readonly DataFile[],
  options: CommitOptions = {},
): Promise<CommitResult> {
  return withTableLock(location, () => new Commit(store, location, mode, files, options.replaces).run());
}

export interface CommitOptions {
  /**
   * For an overwrite: the paths of the files the writer read the table as (its snapshot). Only those are replaced;
   * files another writer appended since stay live, so a concurrent append's rows are never lost (the overwrite
   * then reads as committed before that append). Absent: every live file is replaced.
   */
  readonly replaces?: readonly string[];
}

class Commit {
  readonly #written = new Set<string>();
  #snapshotId = newSnapshotId();
  #added: WrittenManifest[] | null = null;
  /** Set once a put of the next version failed without saying whether it landed: nothing may be removed then. */
  #maybePublished = false;

  constructor(
    readonly store: ObjectStore,
    readonly location: string,
    readonly mode: WriteMode,
    readonly files: readonly DataFile[],
    readonly replaces?: readonly string[],
  ) {}

  async run(): Promise<CommitResult> {
    try {
      for (let attempt = 1; attempt <= MAX_COMMIT_ATTEMPTS; attempt++) {
        const base = await readCurrent(this.store, this.location);
        if (base === null) throw new NoSuchTableError(this.location);
        const done = await this.#attempt(base, attempt);
        if (done !== null) return done;
        // Another writer won this version: wait a little (jittered, so racing writers spread out) and rebase.
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
      throw new CommitConflictError(this.location, MAX_COMMIT_ATTEMPTS);
    } catch (e) {
      await this.#removeWritten(e);
      throw e;
    }
  }

  async #attempt(base: CurrentMetadata, attempt: number): Promise<CommitResult | null> {
    const { store, location } = this;
    const m = base.metadata;
    if (m['format-version'] !== 2) {
      throw new NotSupportedError(
        `writing to Iceberg format-version ${m['format-version']} tables is not supported yet`,
      );
    }
    if (this.#added === null && m.snapshots?.some((s) => s['snapshot-id'] === this.#snapshotId)) {
      this.#snapshotId = newSnapshotId();
    }
    const seq = m['last-sequence-number'] + 1;
    const parentManifests = await currentManifests(store, m);
    const baseLive = await liveEntries(store, m, parentManifests);
    if (this.mode === 'error_if_not_empty' && baseLive.some((e) => e.file.recordCount > 0)) {
      throw new TableNotEmptyError(location);
    }
    this.#added ??= await this.#track(writeAddedManifests(store, location, m, this.#snapshotId, this.files));
    const thisAttempt: string[] = [];
    const added = this.#added.map((w) => w.record(seq));
    let list: ManifestFile[];
    const replacing = this.replaces === undefined ? null : new Set(this.replaces);
    const replacedEntries = replacing === null ? baseLive : baseLive.filter((e) => replacing.has(e.file.path));
    const keptEntries = replacing === null ? [] : baseLive.filter((e) => !replacing.has(e.file.path));
    if (this.mode === 'overwrite') {
      const carry = (entries: typeof baseLive, status: typeof STATUS_DELETED | typeof STATUS_EXISTING) =>
        this.#track(writeCarriedManifests(store, location, m, this.#snapshotId, seq, entries, status));
      const deleted = await carry(replacedEntries, STATUS_DELETED);
      const kept = await carry(keptEntries, STATUS_EXISTING);
      thisAttempt.push(...deleted.map((d) => d.location), ...kept.map((d) => d.location));
      list = [...added, ...kept.map((d) => d.record), ...deleted.map((d) => d.record)];
    } else {
      list = [...parentManifests, ...added];
    }
    const parent = currentSnapshot(m);
    const listLocation = joinLocation(location, 'metadata', `snap-${this.#snapshotId}-${attempt}-${randomUUID()}.avro`);
    const header = {
      snapshotId: this.#snapshotId,
      parentSnapshotId: parent?.['snapshot-id'] ?? null,
      sequenceNumber: seq,
    };
    await this.#track(
      store.put(listLocation, encodeManifestList(list, header)).then(() => [{ location: listLocation }]),
    );
    thisAttempt.push(listLocation);

    const replaced = this.mode === 'overwrite' ? replacedEntries.map((e) => e.file) : [];
    const kept = this.mode === 'overwrite' ? keptEntries : baseLive;
    const live = [...kept.map((e) => e.file), ...this.files];
    const snapshot: Snapshot = {
      'snapshot-id': this.#snapshotId,
      ...(parent === null ? {} : { 'parent-snapshot-id': parent['snapshot-id'] }),
      'sequence-number': seq,
      'timestamp-ms': Math.max(Date.now(), m['last-updated-ms']),
      'manifest-list': listLocation,
      summary: snapshotSummary({
        operation: this.mode === 'overwrite' ? 'overwrite' : 'append',
        added: this.files,
        deleted: replaced,
        live,
      }),
      'schema-id': m['current-schema-id'],
    };
    const metadata = withSnapshot(m, base.metadataLocation, snapshot);
    const metadataLocation = versionFile(location, base.version + 1);
    if (!(await this.#publish(metadataLocation, serializeMetadata(metadata)))) {
      commitStats.conflicts++;
      await this.#remove(thisAttempt);
      return null;
    }
    this.#written.clear();
    commitStats.commits++;
    // Best effort, as in Java: readers that find v(N+1) without the hint still take it (readCurrent).
    await writeHint(store, location, base.version + 1).catch(() => {});
    return { version: base.version + 1, metadataLocation, metadata, snapshotId: this.#snapshotId, files: live };
  }

  /** True when this put created the version; false when another writer had (PreconditionFailedError). */
  async #publish(metadataLocation: string, bytes: Uint8Array): Promise<boolean> {
    try {
      await this.store.put(metadataLocation, bytes, { ifAbsent: true });
      return true;
    } catch (e) {
      if (e instanceof PreconditionFailedError) return false;
      this.#maybePublished = true;
      throw e;
    }
  }

  async #track<T extends readonly { location: string }[]>(writing: Promise<T>): Promise<T> {
    const done = await writing;
    for (const w of done) this.#written.add(w.location);
    return done;
  }

  async #remove(locations: readonly string[]): Promise<void> {
    await Promise.all(locations.map((l) => this.store.delete(l).catch(() => {})));
    for (const l of locations) this.#written.delete(l);
  }

  /** Removes this commit's manifests and lists; says in the error which it could not (orphans to clean up). */
  async #removeWritten(e: unknown): Promise<void> {
    if (this.#written.size === 0) return;
    const left = this.#maybePublished
      ? [...this.#written]
      : (
          await Promise.all(
            [...this.#written].map((l) =>
              this.store.delete(l).then(
                () => null,
                () => l,
              ),
            ),
          )
        ).filter((l): l is string => l !== null);
    if (left.length > 0 && e instanceof Error) e.message += ` (left for cleanup: ${left.join(', ')})`;
  }
}

async function writeHint(store: ObjectStore, location: string, version: number): Promise<void> {
  await store.put(joinLocation(location, 'metadata', 'version-hint.text'), new TextEncoder().encode(String(version)));
}
