// Selection loops in WebAssembly: `selectRangeWhole` (the rows of an int32 batch inside [lo, lo + span), four at a
// time with SIMD, or of an Int16 narrow copy eight at a time), `selectRangeAt` (the same test over the rows of a
// selection, of int32 values or a narrow copy),
// `selectBitsInt32` (rows whose value has its bit set in a bitmap: a dynamic join filter), `selectRunsInt32` (the
// runs of rows of a sorted batch equal to sorted keys) and `selectShortTexts` (texts of up to 4 bytes against
// literals). A JavaScript loop costs 3-6 ns a row here whatever it does; these cost 1-2 (the range test ~1.1 with
// its copies). The batch is copied into the module's memory per call (a memcpy), a bitmap once while it stays the
// same, and the kept row numbers are copied back out. The module's functions, as bytes, are in
// `wasm-select-code.ts`.
import { ensureBytes, instantiate, type WasmMemory } from './wasm-encode.js';
import { LANE_TABLE, POSITION_TABLE, SELECT_FUNCTIONS } from './wasm-select-code.js';

/** Below this many rows the copies cost more than the loop saves. */
const MIN_ROWS = 256;
/** Bitmaps of more 32-bit words than this (a key range of 2^26) stay with the JavaScript loop. */
const MAX_BITMAP_WORDS = 1 << 21;

interface Exports {
  readonly memory: WasmMemory;
  readonly range: (input: number, n: number, lo: number, span: number, out: number, table: number) => number;
  readonly bits: (input: number, n: number, lo: number, span: number, bits: number, out: number) => number;
  readonly bitsAt: Loop;
  readonly words: Loop;
  readonly at8: RangeAt;
  readonly at16: RangeAt;
  readonly at32: RangeAt;
  readonly runs8: Loop;
  readonly runs16: Loop;
  readonly runs32: Loop;
  readonly range16: (input: number, n: number, lo: number, span: number, out: number, table: number) => number;
}

/** A function of many i32 parameters (their order is in `wasm-select-code.ts`). */
type Loop = (...args: number[]) => number;

type RangeAt = (input: number, sel: number, n: number, lo: number, span: number, out: number) => number;

let module: Exports | null | undefined;
/**
 * Bitmaps held at the start of the memory (each at a 16-byte boundary), so each filter's batches copy theirs once
 * (Q21's filters take turns on every batch). Dropped all together when a fifth arrives.
 */
const residents: { readonly bits: Int32Array; readonly at: number }[] = [];
const MAX_RESIDENTS = 4;
/** Where the resident bitmaps end and a call's rows begin. */
let residentBytes = 0;

/** The module with room for `bytes` after the resident bitmaps; null when WebAssembly SIMD is unavailable. */
function withRoom(bytes: number): Exports | null {
  module ??= instantiate<Exports>(SELECT_FUNCTIONS);
  if (module !== null) ensureBytes(module.memory, residentBytes + bytes);
  return module;
}

/**
 * Rows `i` of `x[0..n)` with `lo ≤ x[i] < lo + span` and valid (when `valid` is given), written to `out`; returns
 * how many, or -1 when WebAssembly SIMD is unavailable or `n` is small (the caller's loop runs then). Int32 values
 * (lo ≥ -2^31, 1 ≤ span < 2^32) four rows at a time (`range`); Int16 values, a narrow copy (lo ≥ -32768,
 * lo + span ≤ 32768, 1 ≤ span ≤ 65535), eight at a time (`range16`): half the bytes copied in and about half the
 * instructions a row (TPC-H q06's year of `l_shipdate` over SF1's 6M rows, one thread: 6.2 ms in the int32 loop
 * and 2.9 copying in -> ~2.4 and 1.6).
 */
export function selectRangeWhole(
  x: Int32Array | Int16Array,
  lo: number,
  span: number,
  n: number,
  out: Int32Array,
  valid: Uint8Array | null,
): number {
  if (n < MIN_ROWS) return -1;
  const m = withRoom(rangeLayout(x, n).bytes);
  if (m === null) return -1;
  const { rowsAt, count } = rangeIn(m, residentBytes, x, n, lo, span);
  return keptRows(m, rowsAt, count, out, valid);
}

/**
 * Where `rangeIn` puts `x[0..n)`'s test: its lane table, the values (to a 16-byte boundary), then the rows found (a
 * step stores 16 or 32 bytes however many rows it keeps, so 32 spare); `bytes` in all.
 */
function rangeLayout(x: Int32Array | Int16Array, n: number): { lanes: Uint8Array; valuesBytes: number; bytes: number } {
  const lanes = x instanceof Int32Array ? LANE_TABLE : POSITION_TABLE;
  const valuesBytes = Math.ceil((n * x.BYTES_PER_ELEMENT) / 16) * 16;
  return { lanes, valuesBytes, bytes: lanes.length + valuesBytes + n * 4 + 32 };
}

/**
 * `range` (int32 values, four rows a step) or `range16` (int16, eight) over `x[0..n)`, laid out from byte `at`
 * (`rangeLayout`); the offset of the rows found, and how many.
 */
function rangeIn(
  m: Exports,
  at: number,
  x: Int32Array | Int16Array,
  n: number,
  lo: number,
  span: number,
): { rowsAt: number; count: number } {
  const { lanes, valuesBytes } = rangeLayout(x, n);
  const xAt = at + lanes.length;
  const rowsAt = xAt + valuesBytes;
  new Uint8Array(m.memory.buffer, at, lanes.length).set(lanes);
  copyIn(m.memory.buffer, xAt, x, n);
  const run = x instanceof Int32Array ? m.range : m.range16;
  return { rowsAt, count: run(xAt, n, lo | 0, span | 0, rowsAt, at) };
}

/**
 * The rows `sel[0..n)` of `x` (an int32 column or a narrow copy's Int16 / Int8 values, `rows` long) with
 * `lo ≤ x[i] < lo + span` (lo ≥ -2^31, 1 ≤ span < 2^32) and valid (when `valid` is given), written to `out` (which
 * may be `sel`); returns how many, or -1 when the selection is small against the batch (the whole batch is copied
 * in: at least one row in SEL_SHARE must be selected) or there is no WebAssembly. TPC-H q06's `l_discount BETWEEN`
 * over the 915k rows its date range keeps, Int8 values, 100 batches: 4.7 ms in JavaScript, 2 in here.
 */
export function selectRangeAt(
  x: Int8Array | Int16Array | Int32Array,
  rows: number,
  lo: number,
  span: number,
  sel: Int32Array,
  n: number,
  out: Int32Array,
  valid: Uint8Array | null,
): number {
  if (n < MIN_ROWS || n * SEL_SHARE < rows) return -1;
  const width = x.BYTES_PER_ELEMENT;
  const inBytes = Math.ceil((rows * width) / 16) * 16;
  const m = withRoom(inBytes + n * 8);
  if (m === null) return -1;
  const at = residentBytes;
  const memory = m.memory.buffer;
  if (x instanceof Int8Array) new Int8Array(memory, at, rows).set(x.subarray(0, rows));
  else if (x instanceof Int16Array) new Int16Array(memory, at, rows).set(x.subarray(0, rows));
  else new Int32Array(memory, at, rows).set(x.subarray(0, rows));
  const selAt = at + inBytes;
  new Int32Array(memory, selAt, n).set(sel.subarray(0, n));
  const outAt = selAt + n * 4;
  const run = width === 1 ? m.at8 : width === 2 ? m.at16 : m.at32;
  const k = run(at, selAt, n, lo | 0, span | 0, outAt);
  return keptRows(m, outAt, k, out, valid);
}

/** `selectRangeAt` copies a whole batch in for a selection of at least 1/SEL_SHARE of its rows. */
const SEL_SHARE = 16;

/**
 * The rows of `v[0..n)` (ascending) equal to one of `keys[from..to)` (ascending, distinct, each between `v[0]` and
 * `v[n - 1]`) whose value in `x` (int32s, their Int16 narrow copy, or a coded text column's codes) lies in [lo, hi]
 * (any when `x` is null), written to `out`; returns how many, or -1 (a small batch, a key that is not an integer,
 * no WebAssembly). The batch (and `x`) are copied in whole: streaming 240 KB costs less than reading a few rows
 * every few cache lines (TPC-H q03's 146k order keys over lineitem's sorted l_orderkey, l_shipdate tested, 100 SF1
 * batches: 16.2 ms in JavaScript, 10.0 here, 5.8 of it the copies).
 */
export function selectRunsInt32(
  v: Int32Array,
  n: number,
  keys: Float64Array,
  from: number,
  to: number,
  out: Int32Array,
  x: Int32Array | Int16Array | Uint8Array | null,
  lo: number,
  hi: number,
): number {
  if (n < MIN_ROWS) return -1;
  const test = rangeTest(x, lo, hi);
  if (test === null) return 0;
  const nk = to - from;
  const xBytes = x === null ? 0 : Math.ceil((n * x.BYTES_PER_ELEMENT) / 16) * 16;
  // v, then 4 spare bytes (read past the end), x, the keys and the rows found.
  const m = withRoom(n * 4 + 16 + xBytes + nk * 4 + n * 4);
  if (m === null) return -1;
  const memory = m.memory.buffer;
  const vAt = residentBytes;
  const xAt = vAt + Math.ceil((n * 4 + 4) / 16) * 16;
  const keysAt = xAt + xBytes;
  const outAt = keysAt + nk * 4;
  const keys32 = new Int32Array(memory, keysAt, nk);
  for (let j = 0; j < nk; j++) {
    const key = keys[from + j]!;
    keys32[j] = key;
    if (keys32[j] !== key) return -1;
  }
  new Int32Array(memory, vAt, n).set(v.subarray(0, n));
  if (test.all === 0) copyIn(memory, xAt, x!, n);
  const run = x instanceof Uint8Array ? m.runs8 : x instanceof Int16Array ? m.runs16 : m.runs32;
  const k = run(vAt, n, keysAt, nk, outAt, test.all === 1 ? vAt : xAt, test.low | 0, test.span | 0, test.all);
  out.set(new Int32Array(memory, outAt, k));
  return k;
}

/**
 * Rows `i` of `v[0..n)` whose offset `v[i] - lo` is below `span` and has its bit set in `bits` (bit d of word
 * d >> 5), and whose value in `x` lies in [xlo, xhi] (any when `x` is null), valid ones only when `valid` is given,
 * written to `out`; returns how many, or -1 (small batch, a bitmap over 2^26 bits, no WebAssembly). `lo` must be
 * within ±2^30 so the offset is computed in 32 bits. `bits` must not change once passed: it is copied into the
 * module once and reused while it stays resident. With `x`, its range is tested first (`rangeIn`: four rows at a
 * time, or eight over an Int16 copy) and the bits over the rows it kept (`bitsAt`): TPC-H q03's orders, o_custkey's
 * bits and o_orderdate's range over 60k-row batches, 2.6 ns a row (bits alone) -> 1.5 (both), and the batch leaves
 * the dynamic filter with 10% of its rows instead of 20% to gather.
 */
export function selectBitsInt32(
  v: Int32Array,
  n: number,
  lo: number,
  span: number,
  bits: Int32Array,
  out: Int32Array,
  valid: Uint8Array | null,
  x: Int32Array | Int16Array | null = null,
  xlo = 0,
  xhi = 0,
): number {
  if (n < MIN_ROWS || bits.length > MAX_BITMAP_WORDS) return -1;
  const bitsAt = residentAt(bits);
  if (bitsAt < 0) return -1;
  const test = rangeTest(x, xlo, xhi);
  if (test === null) return 0;
  const ranged = x !== null && test.all === 0;
  const m = withRoom(n * 8 + (ranged ? rangeLayout(x, n).bytes : 0));
  if (m === null) return -1;
  const at = residentBytes;
  const outAt = at + n * 4;
  new Int32Array(m.memory.buffer, at, n).set(v.subarray(0, n));
  if (!ranged) return keptRows(m, outAt, m.bits(at, n, lo | 0, span | 0, bitsAt, outAt), out, valid);
  // x's range after the rows found, then the bits over the rows in it.
  const inRange = rangeIn(m, outAt + n * 4, x, n, test.low, test.span);
  const k = m.bitsAt(at, inRange.rowsAt, inRange.count, lo | 0, span | 0, bitsAt, outAt);
  return keptRows(m, outAt, k, out, valid);
}

/**
 * `lo ≤ x ≤ hi` for the values of `x` as the modules test it, `((x - low) <u span) | all`; null when no value
 * passes. `all`: no test (no `x`, or the range holds every int32 / uint8).
 */
function rangeTest(
  x: Int32Array | Int16Array | Uint8Array | null,
  lo: number,
  hi: number,
): { low: number; span: number; all: number } | null {
  if (x === null) return { low: 0, span: 0, all: 1 };
  const [min, max] =
    x instanceof Int32Array ? [-(2 ** 31), 2 ** 31 - 1] : x instanceof Int16Array ? [-32768, 32767] : [0, 255];
  const low = Math.max(Math.ceil(lo), min);
  const high = Math.min(Math.floor(hi), max);
  if (low > high) return null;
  return low > min || high < max ? { low, span: high - low + 1, all: 0 } : { low, span: 0, all: 1 };
}

/** The first `n` values of `x` copied into the module's memory at byte `at`. */
function copyIn(memory: ArrayBuffer, at: number, x: Int32Array | Int16Array | Uint8Array, n: number): void {
  if (x instanceof Int32Array) new Int32Array(memory, at, n).set(x.subarray(0, n));
  else if (x instanceof Int16Array) new Int16Array(memory, at, n).set(x.subarray(0, n));
  else new Uint8Array(memory, at, n).set(x.subarray(0, n));
}

/**
 * The rows of `sel` (or 0..rows) of a UTF-8 column (`offsets`, `bytes`) whose value, or its first `cap` bytes, is
 * one of `literals` (none of them when `negated`), all of at most 4 bytes: each row's bytes are read as one
 * little-endian word and compared with every literal's. NULL rows never pass. Written to `out` (which may be
 * `sel`); -1 when the batch is small, the selection keeps under an eighth of it (the whole batch is copied in), or
 * there is no WebAssembly.
 */
export function selectShortTexts(
  offsets: Int32Array,
  bytes: Uint8Array,
  rows: number,
  sel: Int32Array | null,
  n: number,
  cap: number,
  literals: readonly Uint8Array[],
  negated: boolean,
  valid: Uint8Array | null,
  out: Int32Array,
): number {
  if (rows < MIN_ROWS || (sel !== null && n * 8 < rows) || literals.length > 16) return -1;
  const first = offsets[0]!;
  const size = offsets[rows]! - first;
  const litAt = 0;
  const offAt = 16 * 8;
  const selAt = offAt + (rows + 1) * 4;
  const bytesAt = selAt + (sel === null ? 0 : n * 4);
  const outAt = bytesAt + Math.ceil((size + 4) / 4) * 4;
  const m = withRoom(outAt + n * 4);
  if (m === null) return -1;
  const base = residentBytes;
  const memory = m.memory.buffer;
  const lits = new Int32Array(memory, base + litAt, literals.length * 2);
  literals.forEach((l, j) => {
    lits[2 * j] = l.reduceRight((w, b) => (w << 8) | b, 0);
    lits[2 * j + 1] = l.length;
  });
  new Int32Array(memory, base + offAt, rows + 1).set(offsets.subarray(0, rows + 1));
  if (sel !== null) new Int32Array(memory, base + selAt, n).set(sel.subarray(0, n));
  const hay = new Uint8Array(memory, base + bytesAt, size + 4);
  hay.set(bytes.subarray(first, first + size));
  hay.fill(0, size);
  const k = m.words(
    base + offAt,
    first,
    base + bytesAt,
    sel === null ? -1 : base + selAt,
    n,
    Math.min(cap, 0x7fffffff),
    base + litAt,
    literals.length,
    negated ? 1 : 0,
    base + outAt,
  );
  return keptRows(m, base + outAt, k, out, valid);
}

/** The `k` row numbers the module wrote at byte `at`, copied to `out` without the NULL rows; returns how many. */
function keptRows(m: Exports, at: number, k: number, out: Int32Array, valid: Uint8Array | null): number {
  out.set(new Int32Array(m.memory.buffer, at, k));
  if (valid === null) return k;
  // NULL rows hold arbitrary values, which the loops do not look past.
  let kept = 0;
  for (let j = 0; j < k; j++) {
    const i = out[j]!;
    out[kept] = i;
    kept += valid[i]!;
  }
  return kept;
}

/** The byte offset of `bits` in the memory, copied there if it is not yet; -1 without WebAssembly. */
function residentAt(bits: Int32Array): number {
  const found = residents.find((r) => r.bits === bits);
  if (found !== undefined) return found.at;
  if (residents.length === MAX_RESIDENTS) {
    residents.length = 0;
    residentBytes = 0;
  }
  const m = withRoom(bits.length * 4);
  if (m === null) return -1;
  const at = residentBytes;
  new Int32Array(m.memory.buffer, at, bits.length).set(bits);
  residents.push({ bits, at });
  residentBytes += Math.ceil((bits.length * 4) / 16) * 16;
  return at;
}
