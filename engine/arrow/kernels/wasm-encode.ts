// The few parts of the WebAssembly binary format that floe's hand-written kernels need
// (https://webassembly.github.io/spec/core/binary/), and their instantiation. Kernels are written as instruction
// bytes in TypeScript, next to the WAT they stand for, rather than shipped as binaries or built by a toolchain.

// The project's TypeScript libs do not describe WebAssembly (no DOM lib); the two constructors used here:
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

/** A module's exported memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** One exported function: its i32 parameter count, extra locals (i32s, then v128s) and body (ending in END). */
export interface WasmFunction {
  readonly name: string;
  readonly params: number;
  readonly i32Locals: number;
  readonly v128Locals: number;
  readonly body: readonly number[];
}

/**
 * A module exporting `memory` (one page to start) and `functions` (i32 parameters, one i32 result), instantiated;
 * null when the runtime cannot (no SIMD): callers keep their JavaScript loops then.
 */
export function instantiate<T>(functions: readonly WasmFunction[]): T | null {
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(moduleBytes(functions))).exports as T;
  } catch {
    return null;
  }
}

/** The memory grown to at least `bytes`. */
export function ensureBytes(memory: WasmMemory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (have < bytes) memory.grow(Math.ceil((bytes - have) / 65_536));
}

function moduleBytes(functions: readonly WasmFunction[]): Uint8Array {
  const I32s = (n: number) => vec(Array.from({ length: n }, () => [I32]));
  const code = functions.map((f) => {
    const locals = vec([
      [f.i32Locals, I32],
      [f.v128Locals, V128],
    ]);
    return [...uleb(locals.length + f.body.length), ...locals, ...f.body];
  });
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(functions.map((f) => [0x60, ...I32s(f.params), ...I32s(1)]))),
    ...section(3, vec(functions.map((_, i) => [i]))),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[...name('memory'), 0x02, 0], ...functions.map((f, i) => [...name(f.name), 0x00, i])])),
    ...section(10, vec(code)),
  ]);
}

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
const simd = (op: number) => [0xfd, ...uleb(op)];

const I32 = 0x7f;
const V128 = 0x7b;

// Instructions, as byte arrays to spread into a body. Local indexes below 128 (one byte).
export const get = (i: number) => [0x20, i];
export const set = (i: number) => [0x21, i];
export const tee = (i: number) => [0x22, i];
export const i32 = (v: number) => [0x41, ...sleb(v)];
export const [ADD, SUB, AND, OR, XOR, SHL, SHR_U] = [[0x6a], [0x6b], [0x71], [0x72], [0x73], [0x74], [0x76]];
export const [LT_S, GT_S] = [[0x48], [0x4a]];
export const [EQ, NE, EQZ, LT_U, GT_U, GE_U, GE_S, CTZ] = [
  [0x46],
  [0x47],
  [0x45],
  [0x49],
  [0x4b],
  [0x4f],
  [0x4e],
  [0x68],
];
/** i32.load / i32.store (4-byte aligned hint), i32.load8_u; offset 0. */
export const LOAD = [0x28, 0x02, 0x00];
export const STORE = [0x36, 0x02, 0x00];
export const LOAD8 = [0x2d, 0x00, 0x00];
/** i32.load8_s and i32.load16_s (sign-extending: Int8Array and Int16Array values); offset 0. */
export const [LOAD8_S, LOAD16_S] = [
  [0x2c, 0x00, 0x00],
  [0x2e, 0x01, 0x00],
];
export const SELECT = [0x1b];
export const V128_LOAD = [...simd(0x00), 0x00, 0x00];
export const V128_STORE = [...simd(0x0b), 0x00, 0x00];
/** v128.store at offset 16; v128.load8x8_u (eight bytes widened to eight 16-bit lanes). */
export const V128_STORE_16 = [...simd(0x0b), 0x00, 0x10];
export const V128_LOAD8X8_U = [...simd(0x02), 0x00, 0x00];
export const POPCNT = [0x69];
export const [I8X16_SWIZZLE, I32X4_ADD] = [simd(0x0e), simd(0xae)];
export const [I8X16_SPLAT, I8X16_EQ, I8X16_BITMASK, V128_AND] = [simd(0x0f), simd(0x23), simd(0x64), simd(0x4e)];
export const [I32X4_SPLAT, I32X4_LT_U, I32X4_BITMASK, I32X4_SUB] = [simd(0x11), simd(0x3a), simd(0xa4), simd(0xb1)];
export const [I16X8_SPLAT, I16X8_LT_U, I16X8_BITMASK, I16X8_SUB] = [simd(0x10), simd(0x30), simd(0x84), simd(0x91)];
/** i32x4.extend_low_i16x8_u / extend_high_i16x8_u: four of the eight 16-bit lanes, zero-extended. */
export const [I32X4_EXTEND_LOW_U16, I32X4_EXTEND_HIGH_U16] = [simd(0xa9), simd(0xaa)];
export const BLOCK = [0x02, 0x40];
export const LOOP = [0x03, 0x40];
export const IF = [0x04, 0x40];
export const END = [0x0b];
export const RETURN = [0x0f];
/** Back to the innermost loop's start. */
export const BR = [0x0c, 0];
/** Out of the block around the innermost loop when the top of the stack is non-zero. */
export const BR_IF_OUT = [0x0d, 1];
