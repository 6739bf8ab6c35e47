// `normalizedOrder`: the sort order of rows whose keys all fit in one number, sorted without a comparator.
import type { Column } from '../../arrow/column.js';
import type { SortSpec } from '../../arrow/kernels/compare-rows.js';
import { textRanks } from './text-ranks.js';

/** Doubles hold integers exactly up to 2^53. */
const EXACT = 2 ** 53;

/**
 * The row order of a sort by `keys` (stable), or null when a key is not small integers (int32, dates, booleans,
 * integral int64/decimal/float values, or text of few distinct values through `textRanks`) or the keys with the
 * row number do not fit in 53 bits. Each key becomes a code in [0, range) (NULLs first or last, DESC reversed),
 * the codes and the row number are packed into one double per row, and a Float64Array sorts natively: no
 * comparator call per comparison (q16 sorts 18k rows by count, brand, type and size this way). With `limit`, only
 * the first `limit` rows of the order are returned.
 */
export function normalizedOrder(
  columns: readonly Column[],
  specs: readonly SortSpec[],
  n: number,
  limit: number = n,
): Int32Array | null {
  const keys: { values: ArrayLike<number>; valid: Uint8Array | null; min: number; range: number }[] = [];
  let span = n;
  for (let k = 0; k < columns.length; k++) {
    const key = integerKey(columns[k]!, n);
    if (key === null) return null;
    span *= key.range;
    if (span >= EXACT) return null;
    keys.push(key);
  }
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let code = 0;
    for (let k = 0; k < keys.length; k++) {
      const { values, valid, min, range } = keys[k]!;
      const spec = specs[k]!;
      // Codes 1..range-2 hold values; 0 and range-1 are NULL's places, first or last.
      let c: number;
      if (valid !== null && valid[i] === 0) c = spec.nullsFirst ? 0 : range - 1;
      else c = spec.ascending ? values[i]! - min + 1 : range - 2 - (values[i]! - min);
      code = code * range + c;
    }
    packed[i] = code * n + i;
  }
  const first = limit * SELECT_RATIO < n ? smallest(packed, limit) : packed;
  first.sort();
  const order = new Int32Array(Math.min(limit, n));
  for (let i = 0; i < order.length; i++) {
    const p = first[i]!;
    order[i] = p - Math.floor(p / n) * n;
  }
  return order;
}

/** A TopK of at most n / SELECT_RATIO rows picks them through a heap instead of sorting every row. */
const SELECT_RATIO = 16;

/**
 * The `k` smallest of `values` (distinct: each holds its row number), unordered: a max-heap of the best so far,
 * which most rows leave after one comparison with its top (q10 keeps 20 of 38k groups).
 */
function smallest(values: Float64Array, k: number): Float64Array {
  const heap = values.slice(0, k);
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(heap, i, heap[i]!);
  for (let i = k; i < values.length; i++) {
    const v = values[i]!;
    if (v < heap[0]!) siftDown(heap, 0, v);
  }
  return heap;
}

/** Places `v` at `at` of the max-heap and moves it down until both children are smaller. */
function siftDown(heap: Float64Array, at: number, v: number): void {
  const n = heap.length;
  let i = at;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && heap[c + 1]! > heap[c]!) c++;
    if (heap[c]! <= v) break;
    heap[i] = heap[c]!;
    i = c;
  }
  heap[i] = v;
}

/** A key's values as integers with their minimum and the number of codes (values, plus two NULL places). */
function integerKey(
  col: Column,
  n: number,
): { values: ArrayLike<number>; valid: Uint8Array | null; min: number; range: number } | null {
  let values: ArrayLike<number>;
  let valid = col.valid;
  if (col.type.id === 'utf8') {
    const ranks = textRanks(col);
    if (ranks === null) return null;
    values = ranks.values as Int32Array;
    valid = ranks.valid;
  } else if (
    col.values instanceof Int32Array ||
    col.values instanceof Uint8Array ||
    col.values instanceof Float64Array
  ) {
    values = col.values;
  } else return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const v = values[i]!;
    // NaN, infinities and fractions go the comparator's way.
    if (!Number.isInteger(v)) return null;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return { values, valid, min: 0, range: 3 };
  const range = max - min + 3;
  return range < EXACT ? { values, valid, min, range } : null;
}
