// `fetchRowsOf`: some rows of Parquet files by row number; each row group's span of them is decoded once.
import type { ParquetFile } from 'parquet-wasm';
import type { Batch } from '../../arrow/batch.js';
import { type Column, emptyValues, makeColumn } from '../../arrow/column.js';
import { takeRows } from '../../arrow/gathered-column.js';
import { concatColumns } from '../../arrow/kernels/take.js';
import { InternalError } from '../../errors.js';
import type { Schema } from '../../plan/types.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { type DecodedGroup, decodeRowGroup } from './decode.js';
import type { DecodePool } from './decode-pool.js';
import type { FileFooter } from './footer.js';

/** One file of a table, as a scan numbered its rows. */
export interface NumberedFile {
  readonly file: ParquetFile;
  readonly version: string;
  readonly footer: FileFooter;
  readonly s3?: S3StoreConfig;
}

const startsByFooter = new WeakMap<FileFooter, Float64Array>();

/** The number of each row group's first row within its file (one more entry: the file's row count). */
export function groupStarts(footer: FileFooter): Float64Array {
  let starts = startsByFooter.get(footer);
  if (starts === undefined) {
    starts = new Float64Array(footer.rowGroups.length + 1);
    footer.rowGroups.forEach((rg, i) => {
      starts![i + 1] = starts![i]! + rg.numRows;
    });
    startsByFooter.set(footer, starts);
  }
  return starts;
}

/** A row group and the rows wanted of it: `lo..hi` of the group, and which output rows they fill. */
interface Span {
  readonly file: NumberedFile;
  readonly rowGroup: number;
  lo: number;
  hi: number;
}

/**
 * `schema`'s columns of the rows numbered `rowIds` (numbered across `files` in order, as `ScanRequest.rowIds`
 * does), in the order of `rowIds`. Decodes, per row group, only the rows from the first wanted to the last
 * (parquet-wasm's offset and limit), on the pool's threads when there is one.
 */
export async function fetchRowsOf(
  files: readonly NumberedFile[],
  schema: Schema,
  rowIds: Float64Array,
  pool: DecodePool | null,
  signal: AbortSignal,
): Promise<Batch> {
  const n = rowIds.length;
  const columns = schema.fields.map((f) => f.name);
  if (n === 0 || columns.length === 0) {
    return {
      schema,
      columns: schema.fields.map((f) => makeColumn(f.type, emptyValues(f.type, 0), null, 0)),
      length: n,
    };
  }
  const { spans, spanOf, local } = spansOf(files, rowIds);
  const decoded = await Promise.all(
    spans.map((s) => {
      const limit = s.hi - s.lo + 1;
      if (pool === null) return decodeRowGroup(s.file.file, s.rowGroup, columns, limit, false, undefined, s.lo);
      const { footer, version, s3 } = s.file;
      const req = { path: footer.path, version, s3, rowGroup: s.rowGroup, columns, limit, offset: s.lo };
      return pool.decode(req, signal);
    }),
  );
  // The spans' rows one after another; output row k is row `at[k]` of them.
  const base = new Float64Array(spans.length);
  for (let i = 1; i < spans.length; i++) base[i] = base[i - 1]! + spans[i - 1]!.hi - spans[i - 1]!.lo + 1;
  const at = new Int32Array(n);
  for (let k = 0; k < n; k++) at[k] = base[spanOf[k]!]! + local[k]! - spans[spanOf[k]!]!.lo;
  const out = columns.map((_, c) => takeRows(concatColumns(decoded.flatMap((g) => partColumns(g, c))), at, n));
  return { schema, columns: out, length: n };
}

function partColumns(group: DecodedGroup, c: number): Column[] {
  return group.map((part) => part.columns[c]!);
}

/** The row groups that `rowIds` fall in, the span of rows wanted of each, and each id's span and row there. */
function spansOf(files: readonly NumberedFile[], rowIds: Float64Array) {
  const fileStarts = new Float64Array(files.length + 1);
  files.forEach((f, i) => {
    fileStarts[i + 1] = fileStarts[i]! + f.footer.numRows;
  });
  const spans: Span[] = [];
  const byGroup = new Map<string, number>();
  const spanOf = new Int32Array(rowIds.length);
  const local = new Float64Array(rowIds.length);
  for (let k = 0; k < rowIds.length; k++) {
    const id = rowIds[k]!;
    const f = lastAtMost(fileStarts, id);
    if (!Number.isInteger(id) || f < 0 || f >= files.length)
      throw new InternalError(`no row number ${id} in the table`);
    const starts = groupStarts(files[f]!.footer);
    const inFile = id - fileStarts[f]!;
    const g = lastAtMost(starts, inFile);
    const row = inFile - starts[g]!;
    const key = `${f}:${g}`;
    let s = byGroup.get(key);
    if (s === undefined) {
      s = spans.push({ file: files[f]!, rowGroup: files[f]!.footer.rowGroups[g]!.index, lo: row, hi: row }) - 1;
      byGroup.set(key, s);
    }
    const span = spans[s]!;
    span.lo = Math.min(span.lo, row);
    span.hi = Math.max(span.hi, row);
    spanOf[k] = s;
    local[k] = row;
  }
  return { spans, spanOf, local };
}

/** The last index i with `sorted[i] <= v` (sorted ascending; -1 when none); among equal entries, the last. */
function lastAtMost(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= v) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
