// `Batch`: a slice of rows as columns sharing one schema; the unit every operator pulls.
import type { Schema } from '../plan/types.js';
import { type Column, MARKED_SLICE_ROWS, makeColumn, subarrayMarked } from './column.js';
import { sliceCodes } from './text-dictionary.js';

export interface Batch {
  readonly schema: Schema;
  readonly columns: readonly Column[];
  readonly length: number;
}

/** Rows per batch that operators aim for. */
export const DEFAULT_BATCH_ROWS = 65_536;

export function makeBatch(schema: Schema, columns: readonly Column[], length: number): Batch {
  return { schema, columns, length };
}

/** Rows [start, end) of a column, without copying typed arrays (subarray views). */
export function sliceColumn(col: Column, start: number, end: number): Column {
  const n = end - start;
  const v = col.values;
  const valid = col.valid === null ? null : col.valid.subarray(start, end);
  if (v === null) return makeColumn(col.type, null, valid, n);
  if (Array.isArray(v)) return makeColumn(col.type, v.slice(start, end), valid, n);
  if ('offsets' in v) {
    const slice = { offsets: v.offsets.subarray(start, end + 1), bytes: v.bytes };
    if (n >= MARKED_SLICE_ROWS) sliceCodes(v, slice, start, end);
    return makeColumn(col.type, slice, valid, n);
  }
  if (v instanceof Int32Array || v instanceof Float64Array)
    return makeColumn(col.type, subarrayMarked(v, start, end), valid, n);
  return makeColumn(col.type, v.subarray(start, end), valid, n);
}

export function sliceBatch(batch: Batch, start: number, end: number): Batch {
  if (start === 0 && end >= batch.length) return batch;
  return makeBatch(
    batch.schema,
    batch.columns.map((c) => sliceColumn(c, start, end)),
    end - start,
  );
}
