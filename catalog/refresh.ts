// `loadForRefresh`: one load of an accelerated dataset as a refresh asks for it: full or append, filtered by SQL.
import { objectStoreFor, type S3StoreConfig } from '../engine/index.js';
import { DatasetLoader } from './dataset-loader.js';
import { DatasetError, type DatasetFailure, type DatasetSpec, resolveDataset } from './datasets.js';
import { leaseLoader, returnLoader } from './loader-lease.js';
import type { LoadedFile, MemoryTableEntry } from './providers/memory.js';
import type { RefreshJob } from './refresh-job.js';
import { rowCount } from './refresh-job.js';
import { RefreshError } from './refresh-sql.js';
import { DatasetSourceError } from './resolve-files.js';
import type { TableEntry } from './snapshot.js';

export { closeIdleLoader } from './loader-lease.js';
export { REFRESH_SQL_RULE, RefreshError } from './refresh-sql.js';

/** One refresh's load. */
export interface RefreshRequest {
  readonly spec: DatasetSpec;
  readonly mode: 'full' | 'append';
  /** A SELECT over the dataset's name (standing for its source) choosing the rows and columns loaded. */
  readonly refreshSql?: string;
  /** Append mode: load only rows whose `timeColumn` is newer than the newest loaded (else only new files). */
  readonly timeColumn?: string;
  /** The entry serving now (append extends it); absent on the first load. */
  readonly previous?: TableEntry;
  /** Aborting ends the load: its helper thread is terminated, with whatever it had read; it rejects with the reason. */
  readonly signal?: AbortSignal;
  /** The dataset's position in the manifest's `datasets`, for `DatasetError` (default 0). */
  readonly index?: number;
}

export interface RefreshResult {
  /**
   * The new table, built beside the one serving: publish it to swap it in. `previous` itself when an append found
   * nothing new (nothing to publish).
   */
  readonly entry: TableEntry;
  /** Rows in the new table, and how many of them this load read from the source. */
  readonly rows: number;
  readonly loadedRows: number;
}

/**
 * Loads `request.spec` for a refresh on a helper thread (first loads share one: `leaseLoader`), never on the
 * calling thread. `full` reads every
 * row the refresh SQL selects into a new table. `append` with a `previous` memory entry adds to it: with a time
 * column, the rows whose value there is after the newest loaded; without, the rows of files not loaded before (the
 * entry remembers its files with their etags; a loaded file that changed fails the append, one removed is ignored,
 * its rows stay). The new table shares the old rows' memory (`appendTable`). Append without `previous`, or without
 * the list of loaded files, loads in full. Throws `DatasetError`: `failure` `refresh` for refresh SQL that does not
 * do (`REFRESH_SQL_RULE`) and for an append whose columns changed, else the source's failure (`source` by default).
 */
export async function loadForRefresh(request: RefreshRequest, baseDir: string): Promise<RefreshResult> {
  const { signal } = request;
  signal?.throwIfAborted();
  // First loads (start-up, retries) come in bursts and share a thread; a refresh gets its own, which takes the
  // memory it used (WebAssembly's never shrinks) with it when it ends.
  const shared = request.previous === undefined;
  const loader = shared ? leaseLoader() : new DatasetLoader();
  const stop = () => void loader.close();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const result = await load(request, baseDir, loader);
    // Aborted as the answer came: the caller has moved on; what was read is dropped, as when the thread ends.
    signal?.throwIfAborted();
    return result;
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw datasetError(e as Error, request.spec, request.index ?? 0);
  } finally {
    signal?.removeEventListener('abort', stop);
    if (signal?.aborted || !shared) await loader.close();
    else returnLoader(loader);
  }
}

async function load(request: RefreshRequest, baseDir: string, loader: DatasetLoader): Promise<RefreshResult> {
  const { spec, refreshSql: sql, signal } = request;
  const source = await filesModeEntry(spec, baseDir, loader, request.index ?? 0);
  const files = await loadedFilesOf(source.files.map(locationOf), s3SettingsOf(source));
  const previous = request.previous?.kind === 'memory' ? (request.previous as MemoryTableEntry) : undefined;
  let job: RefreshJob = { name: spec.name, source, sql };
  let loadedFiles = files;
  if (request.mode === 'append') {
    if (request.timeColumn !== undefined) {
      job = { ...job, previous: previous?.data, timeColumn: request.timeColumn };
    } else if (previous?.loadedFiles !== undefined) {
      const fresh = newFiles(previous.loadedFiles, files);
      if (fresh.length === 0) return unchanged(previous);
      const added = new Set(fresh.map((f) => f.location));
      job = {
        ...job,
        source: { ...source, files: source.files.filter((f) => added.has(locationOf(f))) },
        previous: previous.data,
      };
      loadedFiles = [...previous.loadedFiles, ...fresh];
    }
  }
  signal?.throwIfAborted();
  const { data, loadedRows } = await loader.refresh(job);
  if (data === null) return unchanged(previous!);
  const entry: MemoryTableEntry = { name: spec.name, kind: 'memory', data, loadedFiles };
  return { entry, rows: rowCount(data), loadedRows };
}

/**
 * The entry files mode publishes for `spec` (its files listed, their footers or schema checked on `loader`'s
 * thread), which a refresh reads the source through: any kind of source the catalog resolves.
 */
async function filesModeEntry(spec: DatasetSpec, baseDir: string, loader: DatasetLoader, index: number) {
  const entry = await resolveDataset({ ...spec, accelerated: false }, baseDir, loader, index);
  const files = (entry as { files?: unknown }).files;
  if (!Array.isArray(files)) throw new Error(`a refresh cannot read a source of kind "${entry.kind}"`);
  return { ...entry, files: files as SourceFile[] };
}

/** A source's file: a location (Parquet, CSV, JSON entries) or an Iceberg data file (`path`). */
type SourceFile = string | { readonly path: string };
const locationOf = (f: SourceFile): string => (typeof f === 'string' ? f : f.path);

/**
 * Checks that `sql` can serve as `spec`'s refresh SQL: it parses, is one SELECT of plain columns reading only the
 * dataset, with an optional WHERE (`REFRESH_SQL_RULE`), and binds against the source's schema, on a helper thread
 * and without reading data. Throws `RefreshError` (its message says what is wrong) when the SQL is at fault, and
 * `DatasetError` when the source cannot be read to check it.
 */
export async function checkRefreshSql(spec: DatasetSpec, sql: string, baseDir: string): Promise<void> {
  const loader = leaseLoader();
  try {
    const source = await filesModeEntry(spec, baseDir, loader, 0);
    await loader.refresh({ name: spec.name, source, sql, checkOnly: true });
  } catch (e) {
    if ((e as { failure?: DatasetFailure }).failure === 'refresh') throw new RefreshError((e as Error).message);
    throw datasetError(e as Error, spec, 0);
  } finally {
    returnLoader(loader);
  }
}

/** Each file's location, size and etag (what an append without time column compares). */
async function loadedFilesOf(locations: readonly string[], s3: S3StoreConfig | undefined): Promise<LoadedFile[]> {
  return Promise.all(
    locations.map(async (location) => {
      const { size, etag } = await objectStoreFor(location, s3).head(location);
      return { location, size, etag };
    }),
  );
}

/** How a files-mode entry reaches `s3://` files: a Parquet entry's `s3`, a CSV/JSON entry's `options.s3`. */
function s3SettingsOf(entry: { readonly [field: string]: unknown }): S3StoreConfig | undefined {
  const options = entry.options as { s3?: S3StoreConfig } | undefined;
  return (entry.s3 as S3StoreConfig | undefined) ?? options?.s3;
}

/** The files of `now` not in `loaded`; throws when a loaded one has changed since (its rows cannot be told apart). */
function newFiles(loaded: readonly LoadedFile[], now: readonly LoadedFile[]): LoadedFile[] {
  const known = new Map(loaded.map((f) => [f.location, f]));
  const changed = now.find((f) => known.has(f.location) && known.get(f.location)!.etag !== f.etag);
  if (changed !== undefined)
    throw new RefreshError(
      `${changed.location} changed since it was loaded (${known.get(changed.location)!.size} bytes, now ` +
        `${changed.size}): an append without time_column loads only new files; run a full refresh`,
    );
  return now.filter((f) => !known.has(f.location));
}

function unchanged(previous: MemoryTableEntry): RefreshResult {
  return { entry: previous, rows: rowCount(previous.data), loadedRows: 0 };
}

/** `e` as the dataset's `DatasetError`, keeping the failure it carries (`source` when none). */
function datasetError(e: Error, spec: DatasetSpec, index: number): DatasetError {
  if (e instanceof DatasetError) return e;
  const failure = (e as { failure?: DatasetFailure }).failure ?? 'source';
  const isConfig = e instanceof DatasetSourceError || failure === 'refresh';
  const prefix = failure === 'refresh' || e instanceof DatasetSourceError ? '' : 'cannot load: ';
  return new DatasetError(index, spec.name, prefix + e.message, isConfig, failure);
}
