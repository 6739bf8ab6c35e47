// Parquet footers through hyparquet: row counts and per-row-group min/max/null-count statistics.
import { PlanError } from '../../errors.js';
import { ObjectStoreAccessError } from '../object-store/object-store.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { readFileFooter } from './file-footer.js';

export interface ColumnStats {
  /** Numbers (decimals unscaled, as doubles), bigints, strings, or Dates for dates and timestamps. */
  readonly min: unknown;
  readonly max: unknown;
  readonly nullCount: number | null;
}

export interface RowGroupInfo {
  readonly index: number;
  readonly numRows: number;
  readonly stats: ReadonlyMap<string, ColumnStats>;
}

export interface FileFooter {
  readonly path: string;
  readonly numRows: number;
  readonly rowGroups: readonly RowGroupInfo[];
}

/**
 * The footer of `path` (a location: see `ObjectStore`; `s3` reaches an `s3://` one), from this thread's footer
 * cache; a file that is missing, not Parquet or truncated fails with a `PlanError` naming it (a store that refuses
 * the credentials or cannot be reached: its `ObjectStoreAccessError`).
 */
export async function readFooter(path: string, s3?: S3StoreConfig): Promise<FileFooter> {
  const fail = (why: string) => new PlanError(`cannot read Parquet file ${path}: ${why}`);
  const { metadata: meta, error } = await readFileFooter(path, s3).catch((e: unknown) => {
    // A store that refuses or cannot be reached says so as it is (its message names the location).
    if (e instanceof ObjectStoreAccessError) throw e;
    throw fail(e instanceof Error ? e.message : String(e));
  });
  if (meta === null) throw fail(error ?? 'no footer');
  const rowGroups = meta.row_groups.map((rg, index): RowGroupInfo => {
    const stats = new Map<string, ColumnStats>();
    for (const c of rg.columns) {
      const md = c.meta_data;
      const s = md?.statistics;
      if (!md || !s || md.path_in_schema.length !== 1) continue;
      const min = s.min_value ?? s.min;
      const max = s.max_value ?? s.max;
      stats.set(md.path_in_schema[0]!, {
        min,
        max,
        nullCount: s.null_count === undefined ? null : Number(s.null_count),
      });
    }
    return { index, numRows: Number(rg.num_rows), stats };
  });
  return { path, numRows: Number(meta.num_rows), rowGroups };
}
