import {
  ADD,
  AND,
  BLOCK,
  BR,
  BR_IF_OUT,
  END,
  ensureBytes,
  GE_U,
  get,
  I32X4_BITMASK,
  I32X4_LT_U,
  I32X4_SPLAT,
  I32X4_SUB,
  IF,
  i32,
  instantiate,
  LOAD,
  LOOP,
  LT_U,
  SELECT,
  SHL,
  SHR_U,
  STORE,
  SUB,
  set,
  tee,
  V128_LOAD,
  type WasmFunction,
  type WasmMemory,
} from './wasm-encode.js';

// Selection loops over Int32Array batches in WebAssembly: `selectRangeInt32` (rows inside [lo, lo + span), four at
// a time with SIMD) and `selectBitsInt32` (rows whose value has its bit set in a bitmap: a dynamic join filter).
// A JavaScript loop costs 3-6 ns a row here whatever it does; these cost 1-2. The batch is copied into the module's
// memory per call (a memcpy), a bitmap once while it stays the same, and the kept row numbers are copied back out.
//
// The module (written as bytes with `wasm-encode.ts`):
//
//   (func (export "range") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $out i32)
//                          (result i32)
//     ;; for i in 0, 4, … below n & ~3: m = bitmask((v128.load(in + 4i) - splat(lo)) <u splat(span));
//     ;; if m ≠ 0: out[k] = i + lane; k += (m >> lane) & 1, for each of the 4 lanes (branch-free);
//     ;; then the last n mod 4 rows one by one; returns k)
//   (func (export "bits") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $bits i32)
//                         (param $out i32) (result i32)
//     ;; for each row: d = x[i] - lo; ok = d <u span; d = ok ? d : 0 (select);
//     ;; out[k] = i; k += (bits[d >> 5] >> (d & 31)) & ok; returns k)
//
// An unsigned `v - lo < span` is the whole range test: a value below `lo` wraps to a large number.

/** Below this many rows the copies cost more than the loop saves. */
const MIN_ROWS = 256;
/** Bitmaps of more 32-bit words than this (a key range of 2^26) stay with the JavaScript loop. */
const MAX_BITMAP_WORDS = 1 << 21;

interface Exports {
  readonly memory: WasmMemory;
  readonly range: (input: number, n: number, lo: number, span: number, out: number) => number;
  readonly bits: (input: number, n: number, lo: number, span: number, bits: number, out: number) => number;
}

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
  module ??= instantiate<Exports>([RANGE, BITS]);
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
  const m = withRoom(n * 8);
  if (m === null) return -1;
  const at = residentBytes;
  new Int32Array(m.memory.buffer, at, n).set(x.subarray(0, n));
  const k = m.range(at, n, lo | 0, span | 0, at + n * 4);
  return keptRows(m, at + n * 4, k, out, valid);
}

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

/** range(in, n, lo, span, out) -> count. */
const RANGE: WasmFunction = (() => {
  const [IN, N, LO, SPAN, OUT, I, K, M, N4, VLO, VSPAN] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const valueAt = [...get(IN), ...get(I), ...i32(2), ...SHL, ...ADD];
  /** out[k] = i + lane; k += (m >> lane) & 1 */
  const keepLane = (lane: number) => [
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...i32(lane), ...ADD, ...STORE],
    ...[...get(K), ...get(M), ...i32(lane), ...SHR_U, ...i32(1), ...AND, ...ADD, ...set(K)],
  ];
  const body = [
    ...[...get(LO), ...I32X4_SPLAT, ...set(VLO), ...get(SPAN), ...I32X4_SPLAT, ...set(VSPAN)],
    ...[...get(N), ...i32(-4), ...AND, ...set(N4)],
    // Four rows at a time.
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N4), ...GE_U, ...BR_IF_OUT],
    ...[...valueAt, ...V128_LOAD, ...get(VLO), ...I32X4_SUB, ...get(VSPAN), ...I32X4_LT_U, ...I32X4_BITMASK],
    ...[...tee(M), ...IF, ...keepLane(0), ...keepLane(1), ...keepLane(2), ...keepLane(3), ...END],
    ...[...get(I), ...i32(4), ...ADD, ...set(I), ...BR, ...END, ...END],
    // The rest one by one: out[k] = i; k += (x[i] - lo) <u span.
    ...[...BLOCK, ...LOOP, ...get(I), ...get(N), ...GE_U, ...BR_IF_OUT],
    ...[...get(OUT), ...get(K), ...i32(2), ...SHL, ...ADD, ...get(I), ...STORE],
    ...[...get(K), ...valueAt, ...LOAD, ...get(LO), ...SUB, ...get(SPAN), ...LT_U, ...ADD, ...set(K)],
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...get(K),
    ...END,
  ];
  return { name: 'range', params: 5, i32Locals: 4, v128Locals: 2, body };
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
