// `findAll`: every position of a byte string in a byte range, 16 positions at a time with WebAssembly SIMD (the
// prefilter of LIKE '%word%' over a whole text column). Node's Buffer.indexOf costs a native call per occurrence
// (~0.4 us here with the scan between); this compares the needle's first and last bytes against 16 positions per
// instruction pair and checks the middle only where both match (W. Muła, "SIMD-friendly algorithms for substring
// searching"). The bytes are copied into the module's memory a window at a time.
//
//   (func (export "find") (param $hay i32) (param $from i32) (param $len i32) (param $needle i32) (param $nlen i32)
//                         (param $out i32) (param $max i32) (result i32)
//     ;; for i from $from while i + nlen - 1 + 16 <= len, step 16:
//     ;;   m = bitmask((load(hay + i) == splat(first)) & (load(hay + i + nlen - 1) == splat(last)))
//     ;;   for each set bit t of m: if needle[1 .. nlen - 1) == hay[i + t + 1 ..]: out[count++] = i + t
//     ;; then each remaining i with i + nlen <= len byte by byte; stops when count reaches max; returns count)
import {
  ADD,
  AND,
  BLOCK,
  BR,
  BR_IF_OUT,
  CTZ,
  END,
  EQ,
  EQZ,
  ensureBytes,
  GE_S,
  GE_U,
  GT_U,
  get,
  I8X16_BITMASK,
  I8X16_EQ,
  I8X16_SPLAT,
  IF,
  i32,
  instantiate,
  LOAD8,
  LOOP,
  NE,
  RETURN,
  SHL,
  STORE,
  SUB,
  set,
  tee,
  V128_AND,
  V128_LOAD,
  type WasmFunction,
  type WasmMemory,
} from './wasm-encode.js';

/** Haystacks shorter than this are left to Buffer.indexOf (the copy and call cost more). */
const MIN_BYTES = 4096;
/** Bytes copied into the module per call: a text column's batch is searched in windows of this many. */
const WINDOW = 1 << 22;
/** Positions written per call before it returns (the caller resumes after the last). */
const MAX_POSITIONS = 1 << 16;
/** Where the needle sits in the memory; the window follows it. */
const NEEDLE_AT = 0;
const HAY_AT = 1024;

interface Exports {
  readonly memory: WasmMemory;
  readonly find: (
    hay: number,
    from: number,
    len: number,
    needle: number,
    nlen: number,
    out: number,
    max: number,
  ) => number;
}

let module: Exports | null | undefined;

/**
 * Calls `onMatch(p)` for each position p in [start, end) of `bytes` where `needle` (1 to 1,024 bytes) begins and
 * ends before `end`, ascending; returns false without calling it when the range is short or WebAssembly SIMD is
 * unavailable (the caller searches another way). `window` and `maxPositions` are for tests (window > needle).
 */
export function findAll(
  bytes: Uint8Array,
  start: number,
  end: number,
  needle: Uint8Array,
  onMatch: (p: number) => void,
  window = WINDOW,
  maxPositions = MAX_POSITIONS,
): boolean {
  const nlen = needle.length;
  if (end - start < MIN_BYTES || nlen === 0 || nlen > HAY_AT || nlen >= window) return false;
  module ??= instantiate<Exports>([FIND]);
  if (module === null) return false;
  const m = module;
  const outAt = HAY_AT + Math.ceil((window + 16) / 16) * 16;
  ensureBytes(m.memory, outAt + maxPositions * 4);
  new Uint8Array(m.memory.buffer, NEEDLE_AT, nlen).set(needle);
  // Windows overlap by nlen - 1 bytes: an occurrence across a window's end lies wholly inside the next one, and
  // one wholly inside a window is not found again by the next (it starts before the overlap).
  for (let at = start; at + nlen <= end; at += window - (nlen - 1)) {
    const len = Math.min(window, end - at);
    new Uint8Array(m.memory.buffer, HAY_AT, len).set(bytes.subarray(at, at + len));
    for (let from = 0; ; ) {
      const count = m.find(HAY_AT, from, len, NEEDLE_AT, nlen, outAt, maxPositions);
      const found = new Int32Array(m.memory.buffer, outAt, count);
      for (let j = 0; j < count; j++) onMatch(at + found[j]!);
      if (count < maxPositions) break;
      from = found[count - 1]! + 1;
    }
    if (at + len >= end) break;
  }
  return true;
}

/** find(hay, from, len, needle, nlen, out, max) -> count. */
const FIND: WasmFunction = (() => {
  const [HAY, FROM, LEN, NEEDLE, NLEN, OUT, MAX, I, COUNT, M, T, J, STOP, FIRST, LAST] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
  ];
  /** hay[i + t + j] for local j (t = 0 in the tail). */
  const hayByte = [...get(HAY), ...get(I), ...ADD, ...get(T), ...ADD, ...get(J), ...ADD, ...LOAD8];
  const needleByte = [...get(NEEDLE), ...get(J), ...ADD, ...LOAD8];
  /** j = from; while j < upTo && hay[i + t + j] == needle[j]: j++ */
  const compare = (from: number, upTo: number[]) => [
    ...[...i32(from), ...set(J)],
    ...[...BLOCK, ...LOOP, ...get(J), ...upTo, ...GE_U, ...BR_IF_OUT],
    ...[...hayByte, ...needleByte, ...NE, ...BR_IF_OUT],
    ...[...get(J), ...i32(1), ...ADD, ...set(J), ...BR, ...END, ...END],
  ];
  /** if j >= upTo: out[count++] = i + t; return when count reaches max */
  const record = (upTo: number[]) => [
    ...[...get(J), ...upTo, ...GE_U, ...IF],
    ...[...get(OUT), ...get(COUNT), ...i32(2), ...SHL, ...ADD, ...get(I), ...get(T), ...ADD, ...STORE],
    ...[...get(COUNT), ...i32(1), ...ADD, ...tee(COUNT), ...get(MAX), ...EQ, ...IF, ...get(COUNT), ...RETURN, ...END],
    ...END,
  ];
  const middleEnd = [...get(NLEN), ...i32(1), ...SUB];
  const body = [
    ...[...get(FROM), ...set(I)],
    ...[...get(NEEDLE), ...LOAD8, ...I8X16_SPLAT, ...set(FIRST)],
    ...[...get(NEEDLE), ...get(NLEN), ...ADD, ...i32(1), ...SUB, ...LOAD8, ...I8X16_SPLAT, ...set(LAST)],
    // Sixteen positions at a time while both loads stay inside: i < len - nlen - 15 (signed: may be negative).
    ...[...get(LEN), ...get(NLEN), ...SUB, ...i32(15), ...SUB, ...set(STOP)],
    ...[...BLOCK, ...LOOP, ...get(I), ...get(STOP), ...GE_S, ...BR_IF_OUT],
    ...[...get(HAY), ...get(I), ...ADD, ...V128_LOAD, ...get(FIRST), ...I8X16_EQ],
    ...[...get(HAY), ...get(I), ...ADD, ...get(NLEN), ...ADD, ...i32(1), ...SUB, ...V128_LOAD, ...get(LAST)],
    ...[...I8X16_EQ, ...V128_AND, ...I8X16_BITMASK, ...set(M)],
    ...[...BLOCK, ...LOOP, ...get(M), ...EQZ, ...BR_IF_OUT, ...get(M), ...CTZ, ...set(T)],
    ...compare(1, middleEnd),
    ...record(middleEnd),
    ...[...get(M), ...get(M), ...i32(1), ...SUB, ...AND, ...set(M), ...BR, ...END, ...END],
    ...[...get(I), ...i32(16), ...ADD, ...set(I), ...BR, ...END, ...END],
    // The rest one position at a time, the whole needle compared.
    ...[...i32(0), ...set(T)],
    ...[...BLOCK, ...LOOP, ...get(I), ...get(NLEN), ...ADD, ...get(LEN), ...GT_U, ...BR_IF_OUT],
    ...compare(0, get(NLEN)),
    ...record(get(NLEN)),
    ...[...get(I), ...i32(1), ...ADD, ...set(I), ...BR, ...END, ...END],
    ...get(COUNT),
    ...END,
  ];
  return { name: 'find', params: 7, i32Locals: 6, v128Locals: 2, body };
})();
