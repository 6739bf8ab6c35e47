// The WebAssembly functions behind `wasm-select.ts`, written as bytes with `wasm-encode.ts`.
//
//   (func (export "range") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $out i32)
//                          (param $table i32) (result i32)
//     ;; idx = (0, 1, 2, 3) (the 16 bytes after the table); for i in 0, 4, … below n & ~3:
//     ;; m = bitmask((v128.load(in + 4i) - splat(lo)) <u splat(span));
//     ;; v128.store(out + 4k, i8x16.swizzle(idx, v128.load(table + 16m))); k += popcnt(m); idx += splat(4)
//     ;; (table[m] moves the lanes set in m to the front: no branch, one store per four rows);
//     ;; then the last n mod 4 rows one by one; returns k)
//   (func (export "range16") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $out i32)
//                            (param $table i32) (result i32)
//     ;; `range` over int16 values, eight rows at a time: m = bitmask((v128.load(in + 2i) - splat(lo)) <u
//     ;; splat(span)) in 16-bit lanes; p = v128.load8x8_u(table + 8m) (the positions of m's set bits, as 16-bit
//     ;; lanes); v128.store(out + 4k, extend_low(p) + splat(i)); v128.store(out + 4k + 16, extend_high(p) +
//     ;; splat(i)); k += popcnt(m) (32 bytes written per eight rows, the count kept); then the rest one by one
//   (func (export "bits") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $bits i32)
//                         (param $out i32) (result i32)
//     ;; for each row: d = x[i] - lo; ok = d <u span; d = ok ? d : 0 (select);
//     ;; out[k] = i; k += (bits[d >> 5] >> (d & 31)) & ok; returns k)
//   (func (export "bitsAt") (param $in i32) (param $sel i32) (param $n i32) (param $lo i32) (param $span i32)
//                           (param $bits i32) (param $out i32) (result i32)
//     ;; the same over the rows sel[0..n) (those `range` kept of another column: the scan's own filter; testing
//     ;; both columns in one loop was 1.7-2× slower, too many values live at once)
//   (func (export "at8" / "at16" / "at32") (param $in i32) (param $sel i32) (param $n i32) (param $lo i32)
//                                          (param $span i32) (param $out i32) (result i32)
//     ;; for j below n: i = sel[j]; out[k] = i; k += (x[i] - lo) <u span, x read as int8 / int16 / int32
//     ;; (`selectRangeAt`: a filter's later conjunct over the rows an earlier one kept)
//   (func (export "words") …): texts of up to 4 bytes against literals, one word per row (`selectShortTexts`)
//   (func (export "runs8" / "runs16" / "runs32") (param $v i32) (param $n i32) (param $keys i32) (param $nk i32)
//                          (param $out i32) (param $x i32) (param $lo i32) (param $span i32) (param $all i32)
//                          (result i32)
//     ;; v: n ascending int32s; keys: nk ascending int32s; for each key: i skips 64 rows while v[i + 64] < key,
//     ;; then (v[i] < key, 64 rows left) a branch-free binary search of the 64 rows: b = i, and six times
//     ;; b = v[b + s] < key ? b + s : b (s = 32 … 1, select), i = b + 1; then single steps while v[i] < key;
//     ;; then each row of the key's run: out[k] = i; k += ((x[i] - lo) <u span) | all, x read as uint8 / int16 /
//     ;; int32 (`selectRunsInt32`: the sorted probe of a dynamic join filter)
//
// An unsigned `v - lo < span` is the whole range test: a value below `lo` wraps to a large number.

import {
  ADD,
  AND,
  BLOCK,
  BR,
  BR_IF_OUT,
  END,
  EQ,
  GE_S,
  GE_U,
  GT_S,
  get,
  I8X16_SWIZZLE,
  I16X8_BITMASK,
  I16X8_LT_U,
  I16X8_SPLAT,
  I16X8_SUB,
  I32X4_ADD,
  I32X4_BITMASK,
  I32X4_EXTEND_HIGH_U16,
  I32X4_EXTEND_LOW_U16,
  I32X4_LT_U,
  I32X4_SPLAT,
  I32X4_SUB,
  IF,
  i32,
  LOAD,
  LOAD8,
  LOAD8_S,
  LOAD16_S,
  LOOP,
  LT_S,
  LT_U,
  NE,
  OR,
  POPCNT,
  SELECT,
  SHL,
  SHR_U,
  STORE,
  SUB,
  set,
  V128_LOAD,
  V128_LOAD8X8_U,
  V128_STORE,
  V128_STORE_16,
  type WasmFunction,
  XOR,
} from './wasm-encode.js';

/**
 * For each 4-bit mask m, the `i8x16.swizzle` that moves the 32-bit lanes set in m to the front, in order (the
 * rest zero), then the lane numbers (0, 1, 2, 3) as four int32s: 272 bytes, copied in ahead of each call's rows.
 */
export const LANE_TABLE = (() => {
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

/** For each 8-bit mask m, the positions of its set bits in ascending order (the rest 0): 256 × 8 bytes. */
export const POSITION_TABLE = (() => {
  const bytes = new Uint8Array(256 * 8);
  for (let m = 0; m < 256; m++) {
    let to = m * 8;
    for (let bit = 0; bit < 8; bit++) if (((m >> bit) & 1) === 1) bytes[to++] = bit;
  }
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
    ...rest(I, N, OUT, K, LO, SPAN, [...valueAt, ...LOAD]),
  ];
  return { name: 'range', params: 6, i32Locals: 4, v128Locals: 4, body };
})();

/** range16(in, n, lo, span, out, table) -> count: int16 values, `table` = POSITION_TABLE. */
const RANGE16: WasmFunction = (() => {
  const [IN, N, LO, SPAN, OUT, TABLE, I, K, M, N8, A, VLO, VSPAN, P, VI] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
  ];
  const valueAt = [...get(IN), ...get(I), ...i32(1), ...SHL, ...ADD];
  const body = [
    ...[...get(LO), ...I16X8_SPLAT, ...set(VLO), ...get(SPAN), ...I16X8_SPLAT, ...set(VSPAN)],
    ...[...get(N), ...i32(-8), ...AND, ...set(N8)],
    // Eight rows at a time.
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N8), ...GE_U, ...BR_IF_OUT],
    ...[...valueAt, ...V128_LOAD, ...get(VLO), ...I16X8_SUB, ...get(VSPAN), ...I16X8_LT_U, ...I16X8_BITMASK],
    ...set(M),
    // p = positions of m's bits; a = out + 4k; store p + i as eight int32s (those past popcnt(m) are overwritten)
    ...[...get(TABLE), ...get(M), ...i32(3), ...SHL, ...ADD, ...V128_LOAD8X8_U, ...set(P)],
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...set(A), ...get(I), ...I32X4_SPLAT, ...set(VI)],
    ...[...get(A), ...get(P), ...I32X4_EXTEND_LOW_U16, ...get(VI), ...I32X4_ADD, ...V128_STORE],
    ...[...get(A), ...get(P), ...I32X4_EXTEND_HIGH_U16, ...get(VI), ...I32X4_ADD, ...V128_STORE_16],
    ...[...get(K), ...get(M), ...POPCNT, ...ADD, ...set(K)],
    ...[...get(I), ...i32(8), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...rest(I, N, OUT, K, LO, SPAN, [...valueAt, ...LOAD16_S]),
  ];
  return { name: 'range16', params: 6, i32Locals: 5, v128Locals: 4, body };
})();

/**
 * The end of `range` / `range16` (locals by index): the rows from i to n one by one, each
 * `out[k] = i; k += (x[i] - lo) <u span` with x[i] read by `value`; then returns k.
 */
function rest(I: number, N: number, OUT: number, K: number, LO: number, SPAN: number, value: number[]): number[] {
  return [
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT],
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    ...[...get(K), ...value, ...get(LO), ...SUB, ...get(SPAN), ...LT_U, ...ADD, ...set(K)],
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
}

/** bits(in, n, lo, span, bits, out) -> count. */
const BITS: WasmFunction = (() => {
  const [IN, N, LO, SPAN, BITMAP, OUT, I, K, D, OK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const body = [
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT],
    ...bitTest(IN, I, LO, SPAN, BITMAP, OUT, K, D, OK),
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name: 'bits', params: 6, i32Locals: 4, v128Locals: 0, body };
})();

/** bitsAt(in, sel, n, lo, span, bits, out) -> count: `bits` over the rows sel[0..n). */
const BITS_AT: WasmFunction = (() => {
  const [IN, SEL, N, LO, SPAN, BITMAP, OUT, J, K, I, D, OK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const body = [
    ...[...BLOCK, ...LOOP, ...get(J), ...get(N), ...GE_U, ...BR_IF_OUT],
    ...[...get(SEL), ...get(J), ...i32(2), ...SHL, ...ADD, ...LOAD, ...set(I)],
    ...bitTest(IN, I, LO, SPAN, BITMAP, OUT, K, D, OK),
    ...[...get(J), ...i32(1), ...ADD, ...set(J), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name: 'bitsAt', params: 7, i32Locals: 5, v128Locals: 0, body };
})();

/** Row I's bit test (locals by index): out[k] = i; k += bit (x[i] - lo) when in [0, span). */
function bitTest(
  IN: number,
  I: number,
  LO: number,
  SPAN: number,
  BITMAP: number,
  OUT: number,
  K: number,
  D: number,
  OK: number,
): number[] {
  return [
    // d = x[i] - lo; ok = d <u span; d = ok ? d : 0
    ...[...get(IN), ...get(I), ...i32(2), ...SHL, ...ADD, ...LOAD, ...get(LO), ...SUB, ...set(D)],
    ...[...get(D), ...get(SPAN), ...LT_U, ...set(OK), ...get(D), ...i32(0), ...get(OK), ...SELECT, ...set(D)],
    // out[k] = i; k += (bits[d >> 5] >> (d & 31)) & ok (a shift takes its count mod 32)
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    ...[...get(K), ...get(BITMAP), ...get(D), ...i32(5), ...SHR_U, ...i32(2), ...SHL, ...ADD, ...LOAD],
    ...[...get(D), ...SHR_U, ...get(OK), ...AND, ...ADD, ...set(K)],
  ];
}

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

/** runs8 / runs16 / runs32 (v, n, keys, nk, out, x, lo, span, all) -> count (see `selectRunsInt32`). */
function runs(name: string, xShift: number): WasmFunction {
  const [V, N, KEYS, NK, OUT, X, LO, SPAN, ALL, I, J, K, KEY, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
  const at = (base: number, index: number, plus = 0) => [
    ...[...get(base), ...get(index), ...(plus === 0 ? [] : [...i32(plus), ...ADD]), ...i32(2), ...SHL, ...ADD],
  ];
  const vAt = (plus = 0) => [...at(V, I, plus), ...LOAD];
  // b = v[b + s] < key ? b + s : b
  const halve = (s: number) => [
    ...[...get(B), ...i32(s), ...ADD, ...get(B), ...at(V, B, s), ...LOAD, ...get(KEY), ...LT_S, ...SELECT, ...set(B)],
  ];
  const xAt =
    xShift === 0
      ? [...get(X), ...get(I), ...ADD, ...LOAD8]
      : xShift === 1
        ? [...get(X), ...get(I), ...i32(1), ...SHL, ...ADD, ...LOAD16_S]
        : [...at(X, I), ...LOAD];
  const body = [
    ...[...BLOCK, ...LOOP, ...get(J), ...get(NK), ...GE_U, ...BR_IF_OUT, ...at(KEYS, J), ...LOAD, ...set(KEY)],
    // while (i + 64 < n && v[i + 64] < key) i += 64
    ...[...BLOCK, ...LOOP, ...get(I), ...i32(64), ...ADD, ...get(N), ...GE_U, ...BR_IF_OUT],
    ...[...vAt(64), ...get(KEY), ...GE_S, ...BR_IF_OUT],
    ...[...get(I), ...i32(64), ...ADD, ...set(I), ...BR, ...END, ...END],
    // if (i + 64 < n && v[i] < key) { b = i; six halvings; i = b + 1 } (v[i] is read even when i = n: the
    // memory holds more after v, and the test is false then)
    ...[...get(I), ...i32(64), ...ADD, ...get(N), ...LT_U, ...vAt(), ...get(KEY), ...LT_S, ...AND, ...IF],
    ...[...get(I), ...set(B), ...halve(32), ...halve(16), ...halve(8), ...halve(4), ...halve(2), ...halve(1)],
    ...[...get(B), ...i32(1), ...ADD, ...set(I), ...END],
    // while (i < n && v[i] < key) i++
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT, ...vAt(), ...get(KEY), ...GE_S, ...BR_IF_OUT],
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    // while (i < n && v[i] == key) { out[k] = i; k += ((x[i] - lo) <u span) | all; i++ }
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT, ...vAt(), ...get(KEY), ...NE, ...BR_IF_OUT],
    ...[...at(OUT, K), ...get(I), ...STORE],
    ...[...get(K), ...xAt, ...get(LO), ...SUB, ...get(SPAN), ...LT_U, ...get(ALL), ...OR, ...ADD, ...set(K)],
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...[...get(J), ...i32(1), ...ADD, ...set(J), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name, params: 9, i32Locals: 5, v128Locals: 0, body };
}

/** The module's functions, in export order. */
export const SELECT_FUNCTIONS: readonly WasmFunction[] = [
  RANGE,
  BITS,
  BITS_AT,
  WORDS,
  rangeAt('at8', 0),
  rangeAt('at16', 1),
  rangeAt('at32', 2),
  runs('runs8', 0),
  runs('runs32', 2),
  RANGE16,
  runs('runs16', 1),
];
