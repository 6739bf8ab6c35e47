// Dynamic join filters: a hash join's build side is complete before its probe side starts, so the build keys can
// filter the probe side low in its plan (above the scan, below aggregations and other joins). `KeySet` holds the
// keys; `CollectKeysExec` fills it as the build rows pass; `DynamicFilterExec` drops probe rows whose key is absent.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { type Column, isSorted } from '../../arrow/column.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import { selectBitsInt32 } from '../../arrow/kernels/wasm-select.js';
import { attachedCodes, dictionaryColumn, type TextDictionary } from '../../arrow/text-dictionary.js';
import type { Schema } from '../../plan/types.js';
import type { ExecContext } from '../context.js';
import { selectUtf8Literals } from '../expr/utf8-match.js';
import type { PhysicalOperator } from '../operator.js';
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
   * a test the sorted path may apply to the rows it finds, dropping some early (`selectRuns`); other paths ignore
   * it, so the caller's filter must still test every row it keeps.
   */
  select(col: Column, range: RowRange | null = null): Int32Array | null {
    const test = this.#test;
    const v = col.values;
    if (test.kind === 'off' || !(v instanceof Float64Array || v instanceof Int32Array)) return null;
    const out = SELECTED.take(col.length);
    const rows = col.length;
    let n = isSorted(col) && rows > 0 ? this.#selectSorted(v, rows, out, range) : -1;
    if (n < 0) n = this.#selectRows(v, col.valid, rows, out);
    this.#seen += col.length;
    this.#kept += n;
    if (this.#seen >= TRIAL_ROWS && this.#kept > this.#seen * USELESS_PASS_RATE) this.#test = { kind: 'off' };
    return out.slice(0, n);
  }

  /** The rows whose value is a key, testing each row. */
  #selectRows(v: Float64Array | Int32Array, valid: Uint8Array | null, rows: number, out: Int32Array): number {
    const test = this.#test;
    if (test.kind === 'off') return rows;
    if (test.kind === 'set') return selectSet(v, valid, rows, test.lo, test.hi, test.set, out);
    if (test.span === 0) return 0;
    test.bits ??= bitmap([test.sorted!], test.lo, test.span);
    if (v instanceof Int32Array && Math.abs(test.lo) <= INT32_LO_LIMIT) {
      // In WebAssembly (`wasm-select.ts`): 1-2 ns a row against 4-6.
      const k = selectBitsInt32(v, rows, test.lo, test.span, test.bits, out, valid);
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
   * is found by galloping from the previous run (`takeRuns`). -1 when there are more keys: a galloping search costs
   * 10-20 row tests, so the row loop is cheaper then. A probe sorted by its join key (lineitem by l_orderkey)
   * against a few percent of the keys reads a few rows per key instead of all of them.
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

/**
 * A loop writing to `out` the rows of `v` whose valid value `x` has bit `x - lo` of `bits` set, returning how many
 * (`span` ≤ 2^28 bits). `int32Offset`, for an int32 column with |lo| ≤ 2^30: `(x - lo) >>> 0` is the offset and
 * one unsigned comparison with `span` rejects everything outside (a value below `lo` wraps to ≥ 2^30); otherwise
 * `d | 0 === x - lo` also rejects fractions, NaN and values past int32. `branchless`: every index is written and
 * the count advances by the row's 0/1 (a row outside tests bit 0 of word 0, masked off) — sorted keys against one
 * in ten, in a micro-benchmark, ~3 ns a row against 4.5-6 for the branchy loop (inside queries both cost about
 * twice that); about even when almost nothing passes. Two loops, on validity or not: a per-row
 * `valid === null ? 1 : valid[i]` made the branch-free loop 1.5x slower (V8 does not unswitch it).
 */
function bitsLoop(int32Offset: boolean, branchless: boolean): BitsLoop {
  const inRange = int32Offset
    ? 'const d = (v[i] - lo) >>> 0; const inside = d < span ? 1 : 0;'
    : 'const x = v[i] - lo; const d = x | 0; const inside = (d === x ? 1 : 0) & ((d >>> 0) < span ? 1 : 0);';
  const loop = (checkValid: boolean) => {
    const valid = checkValid ? ' & valid[i]' : '';
    const keep = branchless
      ? `const ok = inside${valid}; const j = d & -ok; out[k] = i; k += (bits[j >>> 5] >>> (j & 31)) & ok;`
      : `if ((inside${valid}) !== 0 && (bits[d >>> 5] & (1 << (d & 31))) !== 0) out[k++] = i;`;
    return `for (let i = 0; i < n; i++) { ${inRange} ${keep} }`;
  };
  const body = `let k = 0; if (valid === null) { ${loop(false)} } else { ${loop(true)} } return k;`;
  return new Function('v', 'valid', 'n', 'lo', 'span', 'bits', 'out', body) as BitsLoop;
}

type BitsLoop = (
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  n: number,
  lo: number,
  span: number,
  bits: Int32Array,
  out: Int32Array,
) => number;

/** Sets of at most this many keys are sorted (once, on the first sorted probe batch) for `#selectSorted`. */
const MAX_SORTED_KEYS = 1 << 16;

/** Keys listed for `#selectSorted` (one thread, used synchronously). */
let keyScratch = new Float64Array(0);

/** Keys of an int32 column are offsets from `lo` computed in 32 bits when |lo| is at most this. */
const INT32_LO_LIMIT = 2 ** 30;

// One compiled loop per input kind and form, so each stays monomorphic.
const BITS = {
  int32Offset: { branchy: bitsLoop(true, false), branchless: bitsLoop(true, true) },
  int32: { branchy: bitsLoop(false, false), branchless: bitsLoop(false, true) },
  float64: { branchy: bitsLoop(false, false), branchless: bitsLoop(false, true) },
};

function selectSet(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  n: number,
  lo: number,
  hi: number,
  set: NumberSet,
  out: Int32Array,
): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const x = v[i] as number;
    if (x >= lo && x <= hi && set.has(x) && (valid === null || valid[i] === 1)) out[k++] = i;
  }
  return k;
}

/** A set of numbers in an open-addressing table (linear probing; NaN marks an empty slot; never NaN keys). */
class NumberSet {
  readonly #slots: Float64Array;
  readonly #mask: number;
  size = 0;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 4) size *= 2;
    this.#slots = new Float64Array(size).fill(Number.NaN);
    this.#mask = size - 1;
  }

  add(x: number): void {
    const slots = this.#slots;
    let i = slotOf(x, this.#mask);
    while (!Number.isNaN(slots[i] as number)) {
      if (slots[i] === x) return;
      i = (i + 1) & this.#mask;
    }
    slots[i] = x;
    this.size++;
  }

  /** The keys, ascending. */
  sortedKeys(): Float64Array {
    const out = new Float64Array(this.size);
    let k = 0;
    for (const s of this.#slots) if (!Number.isNaN(s)) out[k++] = s;
    return out.sort();
  }

  has(x: number): boolean {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let i = slotOf(x, mask); ; i = (i + 1) & mask) {
      const s = slots[i] as number;
      if (s === x) return true;
      if (Number.isNaN(s)) return false;
    }
  }
}

/** Mixes a number's low and high 32 bits (integers up to 2^53 and decimals' scaled values are typical keys). */
function slotOf(x: number, mask: number): number {
  const h = Math.imul((x | 0) ^ ((x / 4294967296) | 0), 0x9e3779b1);
  return (h ^ (h >>> 15)) & mask;
}

/** Passes the build side through unchanged, adding its key column to `keys`; finishes the set at the end. */
export class CollectKeysExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #column: number;
  readonly #keys: KeySet;

  constructor(input: PhysicalOperator, column: number, keys: KeySet) {
    this.#input = input;
    this.#column = column;
    this.#keys = keys;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    this.#keys.reset();
    let collecting = true;
    for await (const batch of this.#input.execute(ctx)) {
      if (collecting) collecting = this.#keys.add(batch.columns[this.#column]!);
      yield batch;
    }
    this.#keys.finish();
  }
}

/**
 * A scan's own bounds on one integer column (`RowRange`'s lo and hi, inclusive) that a dynamic filter may test on
 * the rows its sorted path finds: the scan's filter above tests every row again.
 */
export interface ScanRange {
  readonly column: number;
  readonly lo: number;
  readonly hi: number;
  /** Instead of bounds: the text the column must equal, tested by its code when the column is coded. */
  readonly text?: string;
}

/**
 * The batch's values of the range's column, when they are numbers held as Float64Array or Int32Array; for a text
 * range, the column's codes and the text's code (no row passes when the dictionary lacks it), when it is coded.
 */
function rowRange(batch: Batch, range: ScanRange | null): RowRange | null {
  if (range === null) return null;
  const col = batch.columns[range.column]!;
  if (range.text !== undefined) {
    const coded = attachedCodes(col);
    if (coded === null) return null;
    const code = codeOf(coded.dictionary, range.text);
    if (code === NO_CODE) return null;
    return code < 0 ? { x: coded.codes, lo: 1, hi: 0 } : { x: coded.codes, lo: code, hi: code };
  }
  const x = col.values;
  return x instanceof Float64Array || x instanceof Int32Array ? { x, lo: range.lo, hi: range.hi } : null;
}

/** Each dictionary's codes of the texts asked for so far (-1: not in it; NO_CODE: not comparable as bytes). */
const CODES = new WeakMap<TextDictionary, Map<string, number>>();
const NO_CODE = -2;

/** The code of `text` in `dictionary`, -1 when it holds no such value, or NO_CODE. */
function codeOf(dictionary: TextDictionary, text: string): number {
  let codes = CODES.get(dictionary);
  if (codes === undefined) {
    codes = new Map();
    CODES.set(dictionary, codes);
  }
  let code = codes.get(text);
  if (code === undefined) {
    const found = new Int32Array(dictionary.size);
    const n = selectUtf8Literals(dictionaryColumn(dictionary), [text], false, null, dictionary.size, found);
    code = n < 0 ? NO_CODE : n === 0 ? -1 : found[0]!;
    codes.set(text, code);
  }
  return code;
}

/** Keeps the rows whose column `column` holds one of the build keys. */
export class DynamicFilterExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #column: number;
  readonly #keys: KeySet;
  readonly #range: ScanRange | null;

  constructor(input: PhysicalOperator, column: number, keys: KeySet, range: ScanRange | null = null) {
    this.#input = input;
    this.#column = column;
    this.#keys = keys;
    this.#range = range;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const range = this.#range;
    for await (const batch of this.#input.execute(ctx)) {
      const keep = this.#keys.select(batch.columns[this.#column]!, rowRange(batch, range));
      if (keep === null || keep.length === batch.length) yield batch;
      else if (keep.length > 0)
        yield makeBatch(batch.schema, gatherColumns(batch.columns, keep, keep.length, false), keep.length);
    }
  }
}
