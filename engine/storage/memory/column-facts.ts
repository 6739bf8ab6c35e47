// `zoneFacts`: one pass over a chunk's number or date column recording, per zone of ZONE_ROWS rows, its min, max,
// NULLs and order; the accelerated table's statistics (zone maps, value ranges, keys, sorted chunks) derive from it.
import type { Column } from '../../arrow/column.js';
import { monomorphicCopy } from '../../arrow/kernels/monomorphic.js';

/** Rows per zone: the unit a pushed filter skips inside a chunk (a point lookup reads one zone, not the chunk). */
export const ZONE_ROWS = 4096;

/** `ZoneFacts.order` of a zone: NULLs or a decrease, never decreasing, strictly increasing. */
export const UNSORTED = 0;
export const SORTED = 1;
export const INCREASING = 2;

/**
 * Per zone of a chunk's column: min and max of the non-NULL stored values (lo > hi: none; decimals unscaled, dates
 * in days), the NULLs, and the order (`UNSORTED`, `SORTED`, `INCREASING`; a zone with a NULL is unsorted).
 * Structured-cloneable: the loader computes it once per table (`MemoryTableData.zones`) and each worker derives
 * its statistics from it instead of reading the columns again; a table put together by hand gets it on first use.
 */
export interface ZoneFacts {
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly nulls: Float64Array;
  readonly order: Uint8Array;
}

const ZONED_TYPES = new Set(['int32', 'int64', 'float64', 'decimal', 'date']);
const INTEGER_TYPES = new Set(['int32', 'int64', 'date']);
const ORDERED_TYPES = new Set(['int32', 'int64', 'decimal', 'date']);

/** The zone facts of rows [0, n) of a number or date column; null for other columns and for a NaN anywhere. */
export function zoneFacts(col: Column, n: number): ZoneFacts | null {
  const v = col.values;
  if (!(v instanceof Float64Array || v instanceof Int32Array) || !ZONED_TYPES.has(col.type.id)) return null;
  const count = Math.ceil(n / ZONE_ROWS);
  const facts: ZoneFacts = {
    lo: new Float64Array(count),
    hi: new Float64Array(count),
    nulls: new Float64Array(count),
    order: new Uint8Array(count),
  };
  for (let z = 0, start = 0; start < n; z++, start += ZONE_ROWS) {
    const end = Math.min(n, start + ZONE_ROWS);
    if (!(v instanceof Float64Array ? scanF64 : scanI32)(v, col.valid, start, end, z, facts)) return null;
  }
  return facts;
}

/**
 * Fills zone `z` of `out` from rows [from, to); false on NaN. The order is followed only until the first NULL or
 * decrease (a comparison with the row before that goes either way at random cost more than the min and max
 * together: lineitem's columns 300 -> 107 ms). One compiled copy per array type (`scanF64`, `scanI32`).
 */
function scanZone(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  from: number,
  to: number,
  z: number,
  out: ZoneFacts,
): boolean {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let nulls = 0;
  let order = 2; // INCREASING (a self-contained copy: no free variables)
  let prev = Number.NEGATIVE_INFINITY;
  let i = from;
  for (; i < to; i++) {
    if (valid !== null && valid[i] === 0) break;
    const x = v[i]!;
    if (x < prev || Number.isNaN(x)) break;
    if (x === prev) order = 1; // SORTED
    if (x < lo) lo = x;
    if (x > hi) hi = x;
    prev = x;
  }
  if (i < to) order = 0; // UNSORTED
  for (; i < to; i++) {
    if (valid !== null && valid[i] === 0) {
      nulls++;
      continue;
    }
    const x = v[i]!;
    if (Number.isNaN(x)) return false;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  out.lo[z] = lo;
  out.hi[z] = hi;
  out.nulls[z] = nulls;
  out.order[z] = order;
  return true;
}

const scanF64 = monomorphicCopy(scanZone);
const scanI32 = monomorphicCopy(scanZone);

/** Each chunk's zone facts of field `at` (`zoneFacts`). */
export function zoneFactsOfField(
  chunks: readonly { readonly length: number; readonly columns: readonly Column[] }[],
  at: number,
): (ZoneFacts | null)[] {
  return chunks.map((c) => zoneFacts(c.columns[at]!, c.length));
}

/**
 * Whether a chunk's column of integers, dates or decimals has no validity array and never decreases over its whole
 * values array (`order`: `SORTED`), or strictly increases (`INCREASING`): `columnInOrder` of one chunk.
 */
export function chunkInOrder(col: Column, facts: ZoneFacts | null, order: typeof SORTED | typeof INCREASING): boolean {
  return columnInOrder([col], [facts], order);
}

/** Whether `col`'s order can be read off `facts`: integers, dates or decimals over its whole array, no validity. */
function orderable(col: Column, facts: ZoneFacts | null): facts is ZoneFacts {
  const v = col.values;
  if (facts === null || col.valid !== null || !ORDERED_TYPES.has(col.type.id)) return false;
  return (v instanceof Float64Array || v instanceof Int32Array) && col.length === v.length;
}

/**
 * Whether every zone is in `order` and starts at or above (`SORTED`) or above (`INCREASING`) where the one before
 * ended, the first compared with `before`. A sorted zone starts at its min and ends at its max.
 */
function zonesInOrder(facts: ZoneFacts, order: number, before: number): boolean {
  let last = before;
  for (let z = 0; z < facts.order.length; z++) {
    if (facts.order[z]! < order) return false;
    const first = facts.lo[z]!;
    if (order === INCREASING ? !(first > last) : first < last) return false;
    last = facts.hi[z]!;
  }
  return true;
}

/**
 * max − min + 1 of an integer or date column over all its chunks (NULLs aside), capped at `rows`: an upper bound on
 * its distinct values; null for other columns or when every value is NULL.
 */
export function valueRangeOf(
  columns: readonly Column[],
  facts: readonly (ZoneFacts | null)[],
  rows: number,
): number | null {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < columns.length; c++) {
    const f = facts[c];
    if (!INTEGER_TYPES.has(columns[c]!.type.id) || f == null) return null;
    for (let z = 0; z < f.lo.length; z++) {
      if (f.lo[z]! < lo) lo = f.lo[z]!;
      if (f.hi[z]! > hi) hi = f.hi[z]!;
    }
  }
  return hi >= lo ? Math.min(rows, hi - lo + 1) : null;
}

/**
 * Whether a column never decreases (`SORTED`) or strictly increases (`INCREASING`) across all its chunks in order:
 * each chunk so (`chunkInOrder`), each starting at or above (above) where the one before ended. Empty chunks are
 * passed over.
 */
export function columnInOrder(
  columns: readonly Column[],
  facts: readonly (ZoneFacts | null)[],
  order: typeof SORTED | typeof INCREASING,
): boolean {
  let last = Number.NEGATIVE_INFINITY;
  for (let c = 0; c < columns.length; c++) {
    const f = facts[c] ?? null;
    if (columns[c]!.length === 0) continue;
    if (!orderable(columns[c]!, f) || !zonesInOrder(f, order, last)) return false;
    last = f.hi[f.hi.length - 1]!;
  }
  return true;
}
