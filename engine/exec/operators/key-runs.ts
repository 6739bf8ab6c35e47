// The sorted-probe path of dynamic join filters (`KeySet.#selectSorted`): the build keys inside a sorted batch's
// range, listed from a bitmap (`bitKeys`) or found in sorted keys (`firstAbove`), and each key's run of rows found
// by galloping (`selectRuns`).
import { monomorphicCopy } from '../../arrow/kernels/monomorphic.js';

/**
 * Writes to `keys` the values whose bit is set in `bits` (bit i = value lo + i) between `first` and `last`,
 * ascending, and returns how many; -1 as soon as there are more than `limit`.
 */
export function bitKeys(
  first: number,
  last: number,
  lo: number,
  span: number,
  bits: Int32Array,
  limit: number,
  keys: Float64Array,
): number {
  // Bit offsets of the first and last value, clamped to the bitmap (fractions round inward).
  const a = Math.max(0, Math.ceil(first - lo));
  const b = Math.min(span - 1, Math.floor(last - lo));
  let k = 0;
  for (let w = a >>> 5; w <= b >>> 5 && a <= b; w++) {
    let m = bits[w]!;
    if (w === a >>> 5) m &= -1 << (a & 31);
    if (w === b >>> 5 && (b & 31) !== 31) m &= (1 << ((b & 31) + 1)) - 1;
    while (m !== 0) {
      if (k === limit) return -1;
      keys[k++] = lo + w * 32 + (31 - Math.clz32(m & -m));
      m &= m - 1;
    }
  }
  return k;
}

/** The first index of ascending `keys` holding a value ≥ `x` (> `x` when `strictly`), or its length. */
export function firstAbove(keys: Float64Array, x: number, strictly: boolean): number {
  let from = 0;
  let to = keys.length;
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (keys[mid]! < x || (strictly && keys[mid] === x)) from = mid + 1;
    else to = mid;
  }
  return from;
}

/**
 * The rows of `v` (never decreasing, `n` rows) equal to one of `keys[from..to)` (ascending, distinct), written to
 * `out`; returns how many. For each key: gallop from the previous run's end (steps 1, 2, 4 ... until a value ≥ the
 * key), binary search that step, then take the run of equal values. Self-contained: one monomorphic copy per array
 * kind.
 */
function takeRuns(
  v: Float64Array | Int32Array,
  n: number,
  keys: Float64Array,
  from: number,
  to: number,
  out: Int32Array,
): number {
  let i = 0;
  let k = 0;
  for (let j = from; j < to && i < n; j++) {
    const key = keys[j]!;
    if (v[i]! < key) {
      // v[i] < key: double the step until v[hi] ≥ key (or the end), then binary search (i, hi].
      let step = 1;
      let hi = i + 1;
      while (hi < n && v[hi]! < key) {
        i = hi;
        step *= 2;
        hi = i + step;
      }
      if (hi > n) hi = n;
      let lo = i + 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (v[mid]! < key) lo = mid + 1;
        else hi = mid;
      }
      i = lo;
    }
    while (i < n && v[i] === key) out[k++] = i++;
  }
  return k;
}

const RUNS = { int32: monomorphicCopy(takeRuns), float64: monomorphicCopy(takeRuns) };

/** `takeRuns` through the copy for `v`'s array kind. */
export const selectRuns: typeof takeRuns = (v, n, keys, from, to, out) =>
  (v instanceof Float64Array ? RUNS.float64 : RUNS.int32)(v, n, keys, from, to, out);
