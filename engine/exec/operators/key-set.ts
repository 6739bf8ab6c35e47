// `KeySet`: the distinct build keys of a dynamic join filter's key column, and the test the filter applies to each
// probe batch: a bitmap for dense integer keys (or, when they came ascending, the keys in order), else a set; a
// probe column in key order is answered by finding each key's run of rows (`key-runs.ts`).
import { type Column, isSorted } from '../../arrow/column.js';
import { selectBitsInt32 } from '../../arrow/kernels/wasm-select.js';
import { narrowOf } from '../../arrow/narrow-values.js';
import { BITS, NumberSet, selectSet } from './key-membership.js';
import { bitKeys, firstAbove, type RowRange, selectRuns } from './key-runs.js';
import { ScratchInts } from './scratch-ints.js';

/** Build sides with more rows than this get no filter (collecting costs memory; such filters rarely pay). */
const MAX_BUILD_ROWS = 1 << 22;
/** A bitmap over [min, max] is used while the range is at most this many bits, or 512 per key (64 bytes). */
const MAX_BITMAP_BITS = 1 << 28;
const BITMAP_BITS_PER_KEY = 512;
const MIN_BITMAP_BITS = 1 << 20;
/** After this many probe rows, a filter that kept nearly everything stops checking. */
const TRIAL_ROWS = 1 << 17;
const USELESS_PASS_RATE = 0.9;

type KeyTest =
  | { kind: 'off' }
  | {
      kind: 'bits';
      lo: number;
      span: number;
      /** Null until a batch is tested row by row, when the keys came ascending (`sorted` holds them). */
      bits: Int32Array | null;
      /** The keys in order, when they came ascending (a fact table's keys in load order), else null. */
      sorted: Float64Array | null;
    }
  | { kind: 'set'; lo: number; hi: number; set: NumberSet; sorted?: Float64Array | null };

/** The distinct build keys of one join key column (integers, dates and decimals held as numbers). */
export class KeySet {
  /** The build keys: a batch's values as they are when it has no NULL (never written to), else a copy of them. */
  #parts: (Float64Array | Int32Array)[] = [];
  #count = 0;
  #gaveUp = false;
  /**
   * Built by `finish`: for dense integer keys, a bitmap over [lo, lo + span) or, when they came ascending, the keys
   * in order (the bitmap made on first need); else a Set; `off` = every row passes.
   */
  #test: KeyTest = { kind: 'off' };
  #seen = 0;
  #kept = 0;

  reset(): void {
    this.#parts = [];
    this.#count = 0;
    this.#gaveUp = false;
    this.#test = { kind: 'off' };
    this.#seen = 0;
    this.#kept = 0;
  }

  /** Adds a build batch's key column; returns false once collecting has been given up. */
  add(col: Column): boolean {
    const v = col.values;
    if (this.#gaveUp || !(v instanceof Float64Array || v instanceof Int32Array)) this.#gaveUp = true;
    else if (this.#count + col.length > MAX_BUILD_ROWS) this.#gaveUp = true;
    else if (col.valid === null) {
      this.#parts.push(v.subarray(0, col.length));
      this.#count += col.length;
    } else {
      const out = new Float64Array(col.length);
      let n = 0;
      for (let i = 0; i < col.length; i++) if (col.valid[i] === 1) out[n++] = v[i] as number;
      this.#parts.push(out.subarray(0, n));
      this.#count += n;
    }
    if (this.#gaveUp) this.#parts = [];
    return !this.#gaveUp;
  }

  /** Called when the build side has ended: builds the membership test. */
  finish(): void {
    if (this.#gaveUp) return;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let integers = true;
    for (const p of this.#parts) {
      const r = p instanceof Int32Array ? int32Range(p) : float64Range(p);
      if (r.lo < lo) lo = r.lo;
      if (r.hi > hi) hi = r.hi;
      integers &&= r.integers;
    }
    const maxBits = Math.min(MAX_BITMAP_BITS, Math.max(MIN_BITMAP_BITS, this.#count * BITMAP_BITS_PER_KEY));
    if (this.#count === 0) this.#test = { kind: 'bits', lo: 0, span: 0, bits: new Int32Array(0), sorted: null };
    else if (integers && hi - lo < maxBits) {
      const span = hi - lo + 1;
      // Keys that came ascending are kept as they are: sorted probe batches search them (no bitmap to build, and
      // no bits to list per batch: q03's 146k orders keys cost 1.4 ms to map and 1.9 ms to list per query).
      const sorted = ascendingKeys(this.#parts, this.#count);
      const bits = sorted === null ? bitmap(this.#parts, lo, span) : null;
      this.#test = { kind: 'bits', lo, span, bits, sorted };
    } else {
      const set = new NumberSet(this.#count);
      for (const p of this.#parts) for (let i = 0; i < p.length; i++) set.add(p[i] as number);
      this.#test = { kind: 'set', lo, hi, set };
    }
    this.#parts = [];
  }

  /**
   * Rows of `col` whose value is a build key (NULL never is), or `null` when every row passes unchecked. `range`:
   * a test the sorted path and the WebAssembly bitmap loop apply to the rows they find, dropping some early
   * (`selectRuns`, `selectBitsInt32`); other paths ignore it, so the caller's filter must still test every row it
   * keeps.
   */
  select(col: Column, range: RowRange | null = null): Int32Array | null {
    const test = this.#test;
    const v = col.values;
    if (test.kind === 'off' || !(v instanceof Float64Array || v instanceof Int32Array)) return null;
    const out = SELECTED.take(col.length);
    const rows = col.length;
    let n = isSorted(col) && rows > 0 ? this.#selectSorted(v, rows, out, range) : -1;
    if (n < 0) n = this.#selectRows(v, col.valid, rows, out, range);
    this.#seen += col.length;
    this.#kept += n;
    if (this.#seen >= TRIAL_ROWS && this.#kept > this.#seen * USELESS_PASS_RATE) this.#test = { kind: 'off' };
    return out.slice(0, n);
  }

  /** The rows whose value is a key, testing each row (and `range` too in WebAssembly). */
  #selectRows(
    v: Float64Array | Int32Array,
    valid: Uint8Array | null,
    rows: number,
    out: Int32Array,
    range: RowRange | null,
  ): number {
    const test = this.#test;
    if (test.kind === 'off') return rows;
    if (test.kind === 'set') return selectSet(v, valid, rows, test.lo, test.hi, test.set, out);
    if (test.span === 0) return 0;
    test.bits ??= bitmap([test.sorted!], test.lo, test.span);
    if (v instanceof Int32Array && Math.abs(test.lo) <= INT32_LO_LIMIT) {
      // In WebAssembly (`wasm-select.ts`): 1-2 ns a row against 4-6.
      // The range's column as its Int16 copy when it has one (q03's o_orderdate: half the bytes copied in).
      const narrow = narrowOf(range?.x);
      const x = narrow instanceof Int16Array ? narrow : range?.x instanceof Int32Array ? range.x : null;
      const k = selectBitsInt32(v, rows, test.lo, test.span, test.bits, out, valid, x, range?.lo, range?.hi);
      if (k >= 0) return k;
    }
    // Branch-free unless nearly every row or nearly none passes so far (then the branch is predictable and
    // skipping the store pays).
    const rate = this.#seen === 0 ? 0.5 : this.#kept / this.#seen;
    const branchless = rate > 0.02 && rate < 0.98;
    const loops =
      v instanceof Float64Array ? BITS.float64 : Math.abs(test.lo) <= INT32_LO_LIMIT ? BITS.int32Offset : BITS.int32;
    return (branchless ? loops.branchless : loops.branchy)(v, valid, rows, test.lo, test.span, test.bits, out);
  }

  /**
   * The rows whose value is a key, for a column that never decreases and holds no NULL (`isSorted`): the keys
   * between its first and last value are found (a binary search in keys kept in order, or the bitmap's bits
   * there) and, when there are none (the batch is skipped whole) or at most one per 16 rows, each key's run of rows
   * is found from the previous run (`selectRuns`: skips and a halved window in WebAssembly, galloping in
   * JavaScript). -1 when there are more keys: a search costs 10-20 row tests, so the row loop is cheaper then. A
   * probe sorted by its join key (lineitem by l_orderkey) against a few percent of the keys reads a few rows per
   * key instead of all of them.
   */
  #selectSorted(v: Float64Array | Int32Array, rows: number, out: Int32Array, range: RowRange | null): number {
    const test = this.#test;
    const limit = rows >>> 4;
    const first = v[0]!;
    const last = v[rows - 1]!;
    let keys: Float64Array;
    let from = 0;
    let to: number;
    if (test.kind === 'bits' && test.sorted === null) {
      if (keyScratch.length < limit) keyScratch = new Float64Array(Math.max(limit, 1024));
      keys = keyScratch;
      to = bitKeys(first, last, test.lo, test.span, test.bits!, limit, keys);
    } else if (test.kind === 'bits' || test.kind === 'set') {
      if (test.kind === 'set' && test.sorted === undefined)
        test.sorted = test.set.size <= MAX_SORTED_KEYS ? test.set.sortedKeys() : null;
      if (test.sorted == null) return -1;
      keys = test.sorted;
      from = firstAbove(keys, first, false);
      to = firstAbove(keys, last, true);
    } else return -1;
    if (to < 0 || to - from > limit) return -1;
    if (from === to) return 0;
    return selectRuns(v, rows, keys, from, to, out, range);
  }
}

/** Bit `x - lo` set for every value `x` of `parts` (integers in [lo, lo + span)). */
function bitmap(parts: readonly (Float64Array | Int32Array)[], lo: number, span: number): Int32Array {
  const bits = new Int32Array((span + 31) >>> 5);
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      const d = (p[i] as number) - lo;
      bits[d >>> 5]! |= 1 << (d & 31);
    }
  }
  return bits;
}

/** The `count` values of `parts` in one array when each is above the one before it, else null. */
function ascendingKeys(parts: readonly (Float64Array | Int32Array)[], count: number): Float64Array | null {
  const out = new Float64Array(count);
  let at = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const p of parts) {
    for (let i = 0; i < p.length; i++) {
      const x = p[i] as number;
      if (!(x > last)) return null;
      out[at++] = x;
      last = x;
    }
  }
  return out;
}

/** The least and greatest of `v` (non-empty or not): int32 values are integers, no test needed. */
function int32Range(v: Int32Array): { lo: number; hi: number; integers: boolean } {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return { lo, hi, integers: true };
}

function float64Range(v: Float64Array): { lo: number; hi: number; integers: boolean } {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let integers = true;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
    if (!Number.isInteger(x)) integers = false;
  }
  return { lo, hi, integers };
}

/**
 * The selection is written here and copied out at its size: a fresh array per batch, zeroed at the batch's length
 * (60k rows for a whole chunk), cost as much as the test itself. Used synchronously, so one serves the thread.
 */
const SELECTED = new ScratchInts();

/** Sets of at most this many keys are sorted (once, on the first sorted probe batch) for `#selectSorted`. */
const MAX_SORTED_KEYS = 1 << 16;

/** Keys listed for `#selectSorted` (one thread, used synchronously). */
let keyScratch = new Float64Array(0);

/** Keys of an int32 column are offsets from `lo` computed in 32 bits when |lo| is at most this. */
const INT32_LO_LIMIT = 2 ** 30;
