import {
  ADD,
  AND,
  BLOCK,
  BR,
  BR_IF_OUT,
  END,
  EQ,
  ensureBytes,
  GE_U,
  GT_S,
  get,
  I8X16_SWIZZLE,
  I32X4_ADD,
  I32X4_BITMASK,
  I32X4_LT_U,
  I32X4_SPLAT,
  I32X4_SUB,
  i32,
  instantiate,
  LOAD,
  LOAD8_S,
  LOAD16_S,
  LOOP,
  LT_S,
  LT_U,
  OR,
  POPCNT,
  SELECT,
  SHL,
  SHR_U,
  STORE,
  SUB,
  set,
  V128_LOAD,
  V128_STORE,
  type WasmFunction,
  type WasmMemory,
  XOR,
} from './wasm-encode.js';

// Selection loops over Int32Array batches in WebAssembly: `selectRangeInt32` (rows inside [lo, lo + span), four at
// a time with SIMD) and `selectBitsInt32` (rows whose value has its bit set in a bitmap: a dynamic join filter).
// A JavaScript loop costs 3-6 ns a row here whatever it does; these cost 1-2 (the range test ~1.1 with its
// copies). The batch is copied into the module's memory per call (a memcpy), a bitmap once while it stays the
// same, and the kept row numbers are copied back out.
//
// The module (written as bytes with `wasm-encode.ts`):
//
//   (func (export "range") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $out i32)
//                          (param $table i32) (result i32)
//     ;; idx = (0, 1, 2, 3) (the 16 bytes after the table); for i in 0, 4, … below n & ~3:
//     ;; m = bitmask((v128.load(in + 4i) - splat(lo)) <u splat(span));
//     ;; v128.store(out + 4k, i8x16.swizzle(idx, v128.load(table + 16m))); k += popcnt(m); idx += splat(4)
//     ;; (table[m] moves the lanes set in m to the front: no branch, one store per four rows);
//     ;; then the last n mod 4 rows one by one; returns k)
//   (func (export "bits") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $bits i32)
//                         (param $out i32) (result i32)
//     ;; for each row: d = x[i] - lo; ok = d <u span; d = ok ? d : 0 (select);
//     ;; out[k] = i; k += (bits[d >> 5] >> (d & 31)) & ok; returns k)
//   (func (export "at8" / "at16" / "at32") (param $in i32) (param $sel i32) (param $n i32) (param $lo i32)
//                                          (param $span i32) (param $out i32) (result i32)
//     ;; for j below n: i = sel[j]; out[k] = i; k += (x[i] - lo) <u span, x read as int8 / int16 / int32
//     ;; (`selectRangeAt`: a filter's later conjunct over the rows an earlier one kept)
//
// An unsigned `v - lo < span` is the whole range test: a value below `lo` wraps to a large number.

/** Below this many rows the copies cost more than the loop saves. */
const MIN_ROWS = 256;
/** Bitmaps of more 32-bit words than this (a key range of 2^26) stay with the JavaScript loop. */
const MAX_BITMAP_WORDS = 1 << 21;

interface Exports {
  readonly memory: WasmMemory;
  readonly range: (input: number, n: number, lo: number, span: number, out: number, table: number) => number;
  readonly bits: (input: number, n: number, lo: number, span: number, bits: number, out: number) => number;
  readonly words: (...args: number[]) => number;
  readonly at8: RangeAt;
  readonly at16: RangeAt;
  readonly at32: RangeAt;
}

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
  module ??= instantiate<Exports>([RANGE, BITS, WORDS, rangeAt('at8', 0), rangeAt('at16', 1), rangeAt('at32', 2)]);
  if (module !== null) ensureBytes(module.memory, residentBytes + bytes);
  return module;
}

/**
 * Rows `i` of `x[0..n)` with `lo ≤ x[i] < lo + span` (integers, lo ≥ -2^31, 1 ≤ span < 2^32) and valid (when
 * `valid` is given), written to `out`; returns how many, or -1 when WebAssembly SIMD is unavailable or `n` is small
 * (the caller's loop runs then).
 */
export function selectRangeInt32(
  x: Int32Array,
  lo: number,
  span: number,
  n: number,
  out: Int32Array,
  valid: Uint8Array | null,
): number {
  if (n < MIN_ROWS) return -1;
  const m = withRoom(LANE_TABLE.length + n * 8);
  if (m === null) return -1;
  const table = residentBytes;
  new Uint8Array(m.memory.buffer, table, LANE_TABLE.length).set(LANE_TABLE);
  const at = table + LANE_TABLE.length;
  new Int32Array(m.memory.buffer, at, n).set(x.subarray(0, n));
  const k = m.range(at, n, lo | 0, span | 0, at + n * 4, table);
  return keptRows(m, at + n * 4, k, out, valid);
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
 * Rows `i` of `x[0..n)` whose offset `x[i] - lo` is below `span` and has its bit set in `bits` (bit d of word
 * d >> 5), valid ones only when `valid` is given, written to `out`; returns how many, or -1 (small batch, a bitmap
 * over 2^26 bits, no WebAssembly). `lo` must be within ±2^30 so the offset is computed in 32 bits. `bits` must not
 * change once passed: it is copied into the module once and reused while it stays resident.
 */
export function selectBitsInt32(
  x: Int32Array,
  n: number,
  lo: number,
  span: number,
  bits: Int32Array,
  out: Int32Array,
  valid: Uint8Array | null,
): number {
  if (n < MIN_ROWS || bits.length > MAX_BITMAP_WORDS) return -1;
  const bitsAt = residentAt(bits);
  if (bitsAt < 0) return -1;
  const m = withRoom(n * 8);
  if (m === null) return -1;
  const at = residentBytes;
  new Int32Array(m.memory.buffer, at, n).set(x.subarray(0, n));
  const k = m.bits(at, n, lo | 0, span | 0, bitsAt, at + n * 4);
  return keptRows(m, at + n * 4, k, out, valid);
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

/**
 * For each 4-bit mask m, the `i8x16.swizzle` that moves the 32-bit lanes set in m to the front, in order (the
 * rest zero), then the lane numbers (0, 1, 2, 3) as four int32s: 272 bytes, copied in ahead of each call's rows.
 */
const LANE_TABLE = (() => {
  const bytes = new Uint8Array(17 * 16);
  for (let m = 0; m < 16; m++) {
    let to = m * 16;
    for (let lane = 0; lane < 4; lane++) {
      if (((m >> lane) & 1) === 0) continue;
      for (let b = 0; b < 4; b++) bytes[to++] = lane * 4 + b;
    }
    bytes.fill(0x80, to, m * 16 + 16);
  }
  new Int32Array(bytes.buffer, 16 * 16, 4).set([0, 1, 2, 3]);
  return bytes;
})();

/** range(in, n, lo, span, out, table) -> count. */
const RANGE: WasmFunction = (() => {
  const [IN, N, LO, SPAN, OUT, TABLE, I, K, M, N4, VLO, VSPAN, VIDX, VFOUR] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
  ];
  const valueAt = [...get(IN), ...get(I), ...i32(2), ...SHL, ...ADD];
  const body = [
    ...[...get(LO), ...I32X4_SPLAT, ...set(VLO), ...get(SPAN), ...I32X4_SPLAT, ...set(VSPAN)],
    ...[...get(TABLE), ...i32(16 * 16), ...ADD, ...V128_LOAD, ...set(VIDX), ...i32(4), ...I32X4_SPLAT, ...set(VFOUR)],
    ...[...get(N), ...i32(-4), ...AND, ...set(N4)],
    // Four rows at a time.
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N4), ...GE_U, ...BR_IF_OUT],
    ...[...valueAt, ...V128_LOAD, ...get(VLO), ...I32X4_SUB, ...get(VSPAN), ...I32X4_LT_U, ...I32X4_BITMASK],
    ...set(M),
    // v128.store(out + 4k, swizzle(idx, table[m])); k += popcnt(m); idx += 4
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD],
    ...[
      ...get(VIDX),
      ...get(TABLE),
      ...get(M),
      ...i32(4),
      ...SHL,
      ...ADD,
      ...V128_LOAD,
      ...I8X16_SWIZZLE,
      ...V128_STORE,
    ],
    ...[...get(K), ...get(M), ...POPCNT, ...ADD, ...set(K), ...get(VIDX), ...get(VFOUR), ...I32X4_ADD, ...set(VIDX)],
    ...[...get(I), ...i32(4), ...ADD, ...set(I), ...BR, ...END, ...END],
    // The rest one by one: out[k] = i; k += (x[i] - lo) <u span.
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT],
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    ...[...get(K), ...valueAt, ...LOAD, ...get(LO), ...SUB, ...get(SPAN), ...LT_U, ...ADD, ...set(K)],
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name: 'range', params: 6, i32Locals: 4, v128Locals: 4, body };
})();

/** bits(in, n, lo, span, bits, out) -> count. */
const BITS: WasmFunction = (() => {
  const [IN, N, LO, SPAN, BITMAP, OUT, I, K, D, OK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const body = [
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT],
    // d = x[i] - lo; ok = d <u span; d = ok ? d : 0
    ...[...get(IN), ...get(I), ...i32(2), ...SHL, ...ADD, ...LOAD, ...get(LO), ...SUB, ...set(D)],
    ...[...get(D), ...get(SPAN), ...LT_U, ...set(OK), ...get(D), ...i32(0), ...get(OK), ...SELECT, ...set(D)],
    // out[k] = i; k += (bits[d >> 5] >> (d & 31)) & ok (a shift takes its count mod 32)
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    ...[...get(K), ...get(BITMAP), ...get(D), ...i32(5), ...SHR_U, ...i32(2), ...SHL, ...ADD, ...LOAD],
    ...[...get(D), ...SHR_U, ...get(OK), ...AND, ...ADD, ...set(K)],
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name: 'bits', params: 6, i32Locals: 4, v128Locals: 0, body };
})();

/** at8 / at16 / at32 (in, sel, n, lo, span, out) -> count (see `selectRangeAt`); `shift`: log2 of the width. */
function rangeAt(name: string, shift: number): WasmFunction {
  const [IN, SEL, N, LO, SPAN, OUT, J, K, I] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const load = shift === 0 ? LOAD8_S : shift === 1 ? LOAD16_S : LOAD;
  const body = [
    ...[...BLOCK, ...LOOP, ...get(J), ...get(N), ...GE_U, ...BR_IF_OUT],
    // i = sel[j]; out[k] = i
    ...[...get(SEL), ...get(J), ...i32(2), ...SHL, ...ADD, ...LOAD, ...set(I)],
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    // k += (x[i] - lo) <u span
    ...[...get(K), ...get(IN), ...get(I), ...i32(shift), ...SHL, ...ADD, ...load, ...get(LO), ...SUB],
    ...[...get(SPAN), ...LT_U, ...ADD, ...set(K)],
    ...[...get(J), ...i32(1), ...ADD, ...set(J), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name, params: 6, i32Locals: 3, v128Locals: 0, body };
}

/** words(offsets, first, bytes, sel, n, cap, lits, m, neg, out) -> count (see `selectShortTexts`). */
const WORDS: WasmFunction = (() => {
  const [OFF, FIRST, BYTES, SEL, N, CAP, LITS, M, NEG, OUT, R, I, START, LEN, WORD, HIT, J, K] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
  ];
  const offsetOf = (plus: number) => [...get(OFF), ...get(I), ...i32(2), ...SHL, ...ADD, ...i32(plus), ...ADD, ...LOAD];
  const body = [
    ...[...BLOCK, ...LOOP, ...get(R), ...get(N), ...GE_U, ...BR_IF_OUT],
    // i = sel < 0 ? r : sel[r]
    ...[...get(R), ...i32(0), ...get(SEL), ...get(R), ...i32(2), ...SHL, ...ADD, ...get(SEL), ...i32(0), ...LT_S],
    ...[...SELECT, ...LOAD, ...get(SEL), ...i32(0), ...LT_S, ...SELECT, ...set(I)],
    // start = offsets[i] - first; len = min(offsets[i + 1] - first - start, cap)
    ...[...offsetOf(0), ...get(FIRST), ...SUB, ...set(START)],
    ...[...offsetOf(4), ...get(FIRST), ...SUB, ...get(START), ...SUB, ...set(LEN)],
    ...[...get(CAP), ...get(LEN), ...get(LEN), ...get(CAP), ...GT_S, ...SELECT, ...set(LEN)],
    // word = load32(bytes + start) & (len >= 4 ? -1 : (1 << 8 len) - 1)
    ...[...get(BYTES), ...get(START), ...ADD, ...LOAD],
    ...[
      ...i32(-1),
      ...i32(1),
      ...get(LEN),
      ...i32(3),
      ...SHL,
      ...SHL,
      ...i32(1),
      ...SUB,
      ...get(LEN),
      ...i32(3),
      ...GT_S,
    ],
    ...[...SELECT, ...AND, ...set(WORD)],
    // hit = OR over literals of (word == lit.word) & (len == lit.len)
    ...[...i32(0), ...set(HIT), ...i32(0), ...set(J)],
    ...[...BLOCK, ...LOOP, ...get(J), ...get(M), ...GE_U, ...BR_IF_OUT],
    ...[...get(LITS), ...get(J), ...i32(3), ...SHL, ...ADD, ...LOAD, ...get(WORD), ...EQ],
    ...[...get(LITS), ...get(J), ...i32(3), ...SHL, ...ADD, ...i32(4), ...ADD, ...LOAD, ...get(LEN), ...EQ],
    ...[...AND, ...get(HIT), ...OR, ...set(HIT), ...get(J), ...i32(1), ...ADD, ...set(J), ...BR, ...END, ...END],
    // out[k] = i; k += hit ^ neg
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    ...[...get(K), ...get(HIT), ...get(NEG), ...XOR, ...ADD, ...set(K)],
    ...[...get(R), ...i32(1), ...ADD, ...set(R), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name: 'words', params: 10, i32Locals: 8, v128Locals: 0, body };
})();
