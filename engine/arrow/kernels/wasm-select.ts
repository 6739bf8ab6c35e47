// `selectRangeInt32`: the rows of an Int32Array inside [lo, lo + span), four at a time with WebAssembly SIMD. A
// JavaScript loop costs ~3 ns a row here whatever it does; this one compares four values per instruction, values
// copied into the module's memory per batch (a memcpy) and the kept row numbers copied back out.
//
// The module is one function, written here as bytes rather than shipped as a binary or built by a toolchain:
//
//   (func (export "range") (param $in i32) (param $n i32) (param $lo i32) (param $span i32) (param $out i32)
//                          (result i32)
//     ;; for i in 0, 4, … below n & ~3: m = bitmask((v128.load(in + 4i) - splat(lo)) <u splat(span));
//     ;; if m ≠ 0: out[k] = i + lane; k += (m >> lane) & 1, for each of the 4 lanes (branch-free);
//     ;; then the last n mod 4 rows one by one; returns k)
//
// An unsigned `v - lo < span` is the whole range test: a value below `lo` wraps to a large number.

/** Below this many rows the copies cost more than the loop saves. */
const MIN_ROWS = 256;

// The project's TypeScript libs do not describe WebAssembly (no DOM lib); the two constructors used here:
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

interface Range {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly range: (input: number, n: number, lo: number, span: number, out: number) => number;
}

let module: Range | null | undefined;

/**
 * Rows `i` of `x[0..n)` with `lo ≤ x[i] < lo + span` (integers, lo ≥ -2^31, 1 ≤ span < 2^32), written to `out`;
 * returns how many, or -1 when WebAssembly SIMD is unavailable or `n` is small (the caller's loop runs then).
 */
export function selectRangeInt32(x: Int32Array, lo: number, span: number, n: number, out: Int32Array): number {
  if (n < MIN_ROWS) return -1;
  module ??= instantiate();
  if (module === null) return -1;
  const { memory, range } = module;
  const bytes = n * 8;
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65_536));
  new Int32Array(memory.buffer, 0, n).set(x.subarray(0, n));
  const k = range(0, n, lo | 0, span | 0, n * 4);
  out.set(new Int32Array(memory.buffer, n * 4, k));
  return k;
}

function instantiate(): Range | null {
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()));
    return instance.exports as unknown as Range;
  } catch {
    // No SIMD in this runtime: the JavaScript loops serve.
    return null;
  }
}

// The few parts of the binary format the module needs (https://webassembly.github.io/spec/core/binary/).
const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const b = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? b : b | 0x80);
  } while (n !== 0);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

const I32 = 0x7f;
const V128 = 0x7b;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const i32 = (v: number) => [0x41, ...sleb(v)];
const [ADD, SUB, AND, SHL, SHR_U, LT_U, GE_U] = [[0x6a], [0x6b], [0x71], [0x74], [0x76], [0x49], [0x4f]];
const LOAD = [0x28, 0x02, 0x00];
const STORE = [0x36, 0x02, 0x00];
const simd = (op: number) => [0xfd, ...uleb(op)];
const V128_LOAD = [...simd(0x00), 0x00, 0x00];
const [I32X4_SPLAT, I32X4_LT_U, I32X4_BITMASK, I32X4_SUB] = [simd(0x11), simd(0x3a), simd(0xa4), simd(0xb1)];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const IF = [0x04, 0x40];
const END = [0x0b];
const BR = [0x0c, 0];
const BR_IF_OUT = [0x0d, 1];

// Parameters 0-4, then locals.
const [IN, N, LO, SPAN, OUT, I, K, M, N4, VLO, VSPAN] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** out[k] = i + lane; k += (m >> lane) & 1 */
const keepLane = (lane: number) => [
  ...get(OUT),
  ...get(K),
  ...i32(2),
  ...SHL,
  ...ADD,
  ...get(I),
  ...i32(lane),
  ...ADD,
  ...STORE,
  ...get(K),
  ...get(M),
  ...i32(lane),
  ...SHR_U,
  ...i32(1),
  ...AND,
  ...ADD,
  ...set(K),
];

/** The address of value i: in + 4i. */
const valueAt = [...get(IN), ...get(I), ...i32(2), ...SHL, ...ADD];

function moduleBytes(): Uint8Array {
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
  const code = [
    ...vec([
      [4, I32],
      [2, V128],
    ]),
    ...body,
  ];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([[I32]])]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(
      7,
      vec([
        [...name('memory'), 0x02, 0],
        [...name('range'), 0x00, 0],
      ]),
    ),
    ...section(10, vec([[...uleb(code.length), ...code]])),
  ]);
}
