// `loadForRefresh`: one load of an accelerated dataset as a refresh asks for it: full or append, filtered by SQL.
import { type DatasetSpec, resolveDataset } from './datasets.js';
import type { TableEntry } from './snapshot.js';

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
  readonly signal?: AbortSignal;
}

export interface RefreshResult {
  /** The new table, built beside the one serving: publish it to swap it in. */
  readonly entry: TableEntry;
  /** Rows in the new table, and how many of them this load read from the source. */
  readonly rows: number;
  readonly loadedRows: number;
}

/**
 * Loads `request.spec` for a refresh on a helper thread. Throws `DatasetError` (with its `failure`). For now a full
 * load of the whole source (refresh SQL, append and row counts come with the refresh loader).
 */
export async function loadForRefresh(request: RefreshRequest, baseDir: string): Promise<RefreshResult> {
  const entry = await resolveDataset(request.spec, baseDir);
  return { entry, rows: -1, loadedRows: -1 };
}

/**
 * Checks that `sql` can serve as `spec`'s refresh SQL: it parses, is one SELECT reading only the dataset, and binds
 * against the source's schema. Throws an Error whose message says what is wrong. (Accepts everything for now.)
 */
export async function checkRefreshSql(_spec: DatasetSpec, _sql: string, _baseDir: string): Promise<void> {}
