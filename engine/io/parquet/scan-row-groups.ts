// `scanRowGroups`: decodes a list of row groups with read-ahead and yields their batches in list order.
import type { ParquetFile } from 'parquet-wasm';
import type { Batch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { SharedSlabs } from '../../arrow/shared-slabs.js';
import { CancelledError } from '../../errors.js';
import type { Schema } from '../../plan/types.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { type DecodedGroup, decodeRowGroup } from './decode.js';
import type { DecodePool } from './decode-pool.js';

/** One row group to read; `limit` caps its rows (the last group under a LIMIT). */
export interface RowGroupRead {
  readonly file: ParquetFile;
  readonly path: string;
  /** Size and modification time when the table opened: a changed file is opened afresh. */
  readonly version: string;
  /** How to reach `path` when it is an `s3://` location. */
  readonly s3?: S3StoreConfig;
  readonly rowGroup: number;
  readonly numRows: number;
  readonly limit: number | null;
  /** The number of the group's first row in the table (`ScanRequest.rowIds`). */
  readonly firstRow?: number;
  /** True once the row group cannot hold a row the scan still wants (`ScanRequest.dynamicFilters`): not read. */
  readonly skip?: () => boolean;
}

/** Numbers this thread's shared scans (loads) for the decode threads (`DecodeRequest.sharedLoad`). */
let nextLoad = 1;

/**
 * Yields `schema`'s columns of every read, in order. With a pool, keeps up to `threads + 1` row groups in
 * flight so the threads decode while the caller computes; without one, decodes on this thread, one group at
 * a time. Stops asking for row groups as soon as the caller stops pulling or `signal` fires. `shared`: the arrays
 * are made in shared memory (`ScanRequest.shared`).
 */
export async function* scanRowGroups(
  reads: readonly RowGroupRead[],
  schema: Schema,
  pool: DecodePool | null,
  signal: AbortSignal,
  shared = false,
  rowIds = false,
): AsyncGenerator<Batch> {
  // With `rowIds`, the schema's last field is the row number column, made here rather than decoded.
  const columns = schema.fields.slice(0, rowIds ? -1 : undefined).map((f) => f.name);
  // COUNT(*) and friends read no column: the footer's row count is enough.
  if (columns.length === 0) {
    for (const r of reads) {
      const length = r.limit ?? r.numRows;
      yield { schema, columns: rowIds ? [rowNumbers(r.firstRow ?? 0, length)] : [], length };
    }
    return;
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const slabs = shared && pool === null ? new SharedSlabs() : undefined;
  const sharedLoad = shared && pool !== null ? nextLoad++ : undefined;
  const decode = (r: RowGroupRead): Promise<DecodedGroup> =>
    pool === null
      ? decodeRowGroup(r.file, r.rowGroup, columns, r.limit, false, slabs)
      : pool.decode(
          { path: r.path, version: r.version, s3: r.s3, rowGroup: r.rowGroup, columns, limit: r.limit, sharedLoad },
          stop.signal,
        );
  const fullDepth = pool === null ? 1 : pool.threads + 1;
  // Row groups that a dynamic filter may skip: the first is read alone, so that its rows can tighten the filter
  // before the next ones are asked for (else the read-ahead decodes groups the filter would have skipped).
  let depth = reads.some((r) => r.skip !== undefined) ? 1 : fullDepth;
  const inFlight: { read: RowGroupRead; decoded: Promise<DecodedGroup> }[] = [];
  let next = 0;
  try {
    while (next < reads.length || inFlight.length > 0) {
      if (signal.aborted) throw new CancelledError();
      while (inFlight.length < depth && next < reads.length) {
        const read = reads[next++]!;
        if (read.skip?.() === true) continue;
        const decoded = decode(read);
        // A group whose result is never awaited (the scan stopped first) must not become an unhandled rejection.
        decoded.catch(() => {});
        inFlight.push({ read, decoded });
      }
      const head = inFlight.shift();
      if (head === undefined) break;
      const parts = await head.decoded;
      depth = fullDepth;
      // Decoded ahead, but the filter has tightened since: none of its rows can be wanted.
      if (head.read.skip?.() === true) continue;
      let row = head.read.firstRow ?? 0;
      for (const part of parts) {
        const cols = rowIds ? [...part.columns, rowNumbers(row, part.length)] : part.columns;
        row += part.length;
        yield { schema, columns: cols, length: part.length };
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    stop.abort();
    if (sharedLoad !== undefined) pool?.endLoad(sharedLoad);
  }
}

/** `length` consecutive row numbers from `first`, as a float64 column (exact up to 2^53 rows). */
function rowNumbers(first: number, length: number): Column {
  const values = new Float64Array(length);
  for (let i = 0; i < length; i++) values[i] = first + i;
  return { type: { id: 'float64' }, length, values, valid: null };
}
