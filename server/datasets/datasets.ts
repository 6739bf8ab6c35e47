// `Datasets`: the running datasets as the front ends see them: state, on-demand refresh, refresh SQL at runtime.

/** A dataset's state (contract §3; `GET /v1/datasets?status=true` prints these names). */
export type DatasetStatus = 'Initializing' | 'Ready' | 'Disabled' | 'Error' | 'Refreshing' | 'ShuttingDown';

/** Why a dataset is in `Error`: `code` is `<category>.<type>`, e.g. `dataset.connection`, `dataset.auth`. */
export interface DatasetErrorInfo {
  readonly category: 'dataset';
  /** `auth` (credentials refused), `connection` (source unreachable), `source` (nothing there, unreadable data), `refresh` (the refresh SQL failed), `internal`. */
  readonly type: 'auth' | 'connection' | 'source' | 'refresh' | 'internal';
  readonly code: string;
}

/** One dataset now. */
export interface DatasetState {
  /** As configured (the manifest's spelling). */
  readonly name: string;
  /** The manifest's `from`, verbatim. */
  readonly from: string;
  readonly accelerated: boolean;
  readonly status: DatasetStatus;
  /** Null unless `status` is `Error` (or the last refresh failed while the old data keeps serving). */
  readonly error: DatasetErrorInfo | null;
  /** A message naming the dataset and its connector; null with `error`. */
  readonly errorMessage: string | null;
  /** Extra properties: `{search, vector_search}`, `search` `supported` when a column has full-text search. */
  readonly properties: Readonly<Record<string, string>>;
}

/** Overrides of one on-demand refresh (contract §2.7); absent fields use the dataset's configuration. */
export interface RefreshOverrides {
  readonly refreshSql?: string;
  readonly refreshMode?: 'full' | 'append';
  /** Upper bound of the random delay before this refresh starts. */
  readonly jitterMaxMs?: number;
}

/** No dataset has that name (matched case-insensitively): 404 `Dataset <name> not found`. */
export class DatasetNotFoundError extends Error {
  constructor(readonly datasetName: string) {
    super(`Dataset ${datasetName} not found`);
  }
}

/** The dataset is not accelerated, so it has nothing to refresh: 400. */
export class NotAcceleratedError extends Error {
  constructor(readonly datasetName: string) {
    super(`Dataset ${datasetName} does not have acceleration enabled`);
  }
}

/** The request is wrong (refresh SQL that does not parse or bind, a bad override): 400 with this message. */
export class DatasetRequestError extends Error {}

/** The running datasets: what `/v1/datasets`, MCP and Flight's metadata read, and the refresh controls. */
export interface Datasets {
  /** Every configured dataset, in manifest order. */
  list(): readonly DatasetState[];
  /** True once every dataset has finished its first load attempt (loaded or failed): `/v1/ready` then answers ready. */
  readonly settled: boolean;
  /**
   * Starts a refresh of `name` with `overrides` and resolves with the dataset's configured name once it is
   * triggered (not finished). Throws `DatasetNotFoundError`, `NotAcceleratedError`, `DatasetRequestError`; any
   * other error means it could not start (500).
   */
  refresh(name: string, overrides?: RefreshOverrides): Promise<string>;
  /**
   * Replaces the refresh SQL of `name` until restart (used by the next refresh; none starts now). Resolves with the
   * configured name; throws `DatasetNotFoundError`, `DatasetRequestError` (SQL that does not parse or bind).
   */
  setRefreshSql(name: string, sql: string): Promise<string>;
}
