// The sorted-probe path of dynamic join filters (`KeySet.#selectSorted`): the build keys inside a sorted batch's
// range, listed from a bitmap (`bitKeys`) or found in sorted keys (`firstAbove`), and each key's run of rows found
// (`selectRuns`: in WebAssembly for int32 batches, else by galloping in `takeRuns`).
import { monomorphicCopy } from '../../arrow/kernels/monomorphic.js';
import { selectRunsInt32 } from '../../arrow/kernels/wasm-select.js';
import { narrowOf } from '../../arrow/narrow-values.js';

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
 * The rows of `v` (never decreasing, `n` rows) equal to one of `keys[from..to)` (ascending, distinct) whose value
 * in `x` lies in [lo, hi], written to `out`; returns how many. For each key: gallop from the previous run's end
 * (steps 1, 2, 4 ... until a value ≥ the key), binary search that step, then take the run of equal values, each
 * row tested against the range on the way (a scan's own filter on another column: TPC-H q03's l_shipdate, read
 * here for the ~4 rows of a run instead of in a later pass over the 585k rows the keys alone select; 100 SF1
 * batches: 22 -> 18 ms; or q10's `l_returnflag = 'R'` as a code). `x` = `v` with an unbounded range tests nothing.
 * Self-contained: one monomorphic copy per pair of array kinds.
 */
function takeRuns(
  v: Float64Array | Int32Array,
  n: number,
  keys: Float64Array,
  from: number,
  to: number,
  out: Int32Array,
  x: Float64Array | Int32Array | Uint8Array,
  lo: number,
  hi: number,
): number {
  let i = 0;
  let k = 0;
  for (let j = from; j < to && i < n; j++) {
    const key = keys[j]!;
    if (v[i]! < key) {
      // v[i] < key: double the step until v[end] ≥ key (or the end), then binary search (i, end].
      let step = 1;
      let end = i + 1;
      while (end < n && v[end]! < key) {
        i = end;
        step *= 2;
        end = i + step;
      }
      if (end > n) end = n;
      let low = i + 1;
      while (low < end) {
        const mid = (low + end) >>> 1;
        if (v[mid]! < key) low = mid + 1;
        else end = mid;
      }
      i = low;
    }
    while (i < n && v[i] === key) {
      const y = x[i]!;
      out[k] = i++;
      k += (y >= lo ? 1 : 0) & (y <= hi ? 1 : 0);
    }
  }
  return k;
}

const runsBy = () => ({
  int32: monomorphicCopy(takeRuns),
  float64: monomorphicCopy(takeRuns),
  uint8: monomorphicCopy(takeRuns),
});
const RUNS = { int32: runsBy(), float64: runsBy() };

/**
 * Rows of `x` whose value lies in [lo, hi] (`selectRuns`): numbers, or a coded text column's codes (Uint8Array);
 * NULL rows may pass, so a filter above re-tests them.
 */
export interface RowRange {
  readonly x: Float64Array | Int32Array | Uint8Array;
  readonly lo: number;
  readonly hi: number;
}

/**
 * `takeRuns` in WebAssembly for int32 batches (`selectRunsInt32`: ~1.6× faster with its copies), else through the
 * copy for the array kinds of `v` and the range's column (none: no test).
 */
export function selectRuns(
  v: Float64Array | Int32Array,
  n: number,
  keys: Float64Array,
  from: number,
  to: number,
  out: Int32Array,
  range: RowRange | null = null,
): number {
  if (v instanceof Int32Array && !(range?.x instanceof Float64Array)) {
    // An int32 column's Int16 copy (q03's l_shipdate) is copied in at half the bytes.
    const narrow = narrowOf(range?.x);
    const rx = narrow instanceof Int16Array ? narrow : ((range?.x ?? null) as Int32Array | Uint8Array | null);
    const k = selectRunsInt32(v, n, keys, from, to, out, rx, range?.lo ?? 0, range?.hi ?? 0);
    if (k >= 0) return k;
  }
  const x = range?.x ?? v;
  const runs = v instanceof Float64Array ? RUNS.float64 : RUNS.int32;
  const run = x instanceof Float64Array ? runs.float64 : x instanceof Int32Array ? runs.int32 : runs.uint8;
  return run(
    v,
    n,
    keys,
    from,
    to,
    out,
    x,
    range?.lo ?? Number.NEGATIVE_INFINITY,
    range?.hi ?? Number.POSITIVE_INFINITY,
  );
}
