// Parquet footers through hyparquet: row counts and per-row-group min/max/null-count statistics.
import { type AsyncBuffer, parquetMetadataAsync } from 'hyparquet';
import { PlanError } from '../../errors.js';
import { objectStoreFor } from '../object-store/object-store-for.js';

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
 * The footer of `path` (a location: see `ObjectStore`); a file that is missing, not Parquet or truncated fails
 * with a `PlanError` naming it.
 */
export async function readFooter(path: string): Promise<FileFooter> {
  const meta = await parquetMetadataAsync(await storeBuffer(path)).catch((e: unknown) => {
    throw new PlanError(`cannot read Parquet file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  });
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

/** hyparquet's view of the file: its size, and byte ranges read through its object store (of one version). */
async function storeBuffer(location: string): Promise<AsyncBuffer> {
  const store = objectStoreFor(location);
  const { size, etag } = await store.head(location).catch((e: unknown) => {
    throw new PlanError(`cannot read Parquet file ${location}: ${e instanceof Error ? e.message : String(e)}`);
  });
  const slice = async (start: number, end = size): Promise<ArrayBuffer> => {
    const bytes = await store.read(location, { offset: start, length: end - start }, { ifMatch: etag });
    return bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : bytes.slice().buffer;
  };
  return { byteLength: size, slice };
}
