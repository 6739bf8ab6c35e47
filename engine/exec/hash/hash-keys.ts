// `hashKeys`: one 32-bit hash per row over a batch of key columns, column at a time (no per-row closures).
import type { Int64Keys, KeyColumn, NumberKeys, TextKeys } from './key-column.js';

/** The hash of a NULL key part (GROUP BY puts NULLs in one group). */
const NULL_HASH = 0x1b873593;

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** murmur3's finalizer: spreads every input bit over the result. */
export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Equal numbers hash equal: 0 and -0 alike, every NaN alike; int32 values skip the float bits. */
export function hashNumber(x: number): number {
  let h = x | 0;
  if (h !== x) {
    if (Number.isNaN(x)) h = 0x7ff80000;
    else {
      F64[0] = x;
      h = U32[0]! ^ Math.imul(U32[1]!, 0x9e3779b1);
    }
  }
  return mix32(h);
}

/** An int64 beyond ±2^53 (it never equals a number, so it needs no agreement with `hashNumber`). */
export function hashBigInt(x: bigint): number {
  return hashHalves(Number(BigInt.asIntN(32, x)), Number(BigInt.asIntN(32, x >> 32n)));
}

/** An int64 as its low and high 32 bits (`int64Halves`). */
export function hashHalves(lo: number, hi: number): number {
  return mix32(lo ^ Math.imul(hi, 0x9e3779b1));
}

/** FNV-1a over bytes [start, end), then mixed. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return mix32(h);
}

const FNV_PRIME = 0x01000193;

/**
 * `hashBytes` of the UTF-8 encoding of `s`, as TextEncoder writes it (a lone surrogate as U+FFFD), without
 * encoding it: a string and its bytes hash alike.
 */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let j = 0; j < s.length; j++) {
    let c = s.charCodeAt(j);
    if (c < 0x80) h = Math.imul(h ^ c, FNV_PRIME);
    else if (c < 0x800) {
      h = Math.imul(h ^ (0xc0 | (c >> 6)), FNV_PRIME);
      h = Math.imul(h ^ (0x80 | (c & 63)), FNV_PRIME);
    } else {
      const d = c >= 0xd800 && c <= 0xdbff && j + 1 < s.length ? s.charCodeAt(j + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        j++;
        h = Math.imul(h ^ (0xf0 | (cp >> 18)), FNV_PRIME);
        h = Math.imul(h ^ (0x80 | ((cp >> 12) & 63)), FNV_PRIME);
        h = Math.imul(h ^ (0x80 | ((cp >> 6) & 63)), FNV_PRIME);
        h = Math.imul(h ^ (0x80 | (cp & 63)), FNV_PRIME);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      h = Math.imul(h ^ (0xe0 | (c >> 12)), FNV_PRIME);
      h = Math.imul(h ^ (0x80 | ((c >> 6) & 63)), FNV_PRIME);
      h = Math.imul(h ^ (0x80 | (c & 63)), FNV_PRIME);
    }
  }
  return mix32(h);
}

/** Hashes of rows [0, n) of `keys`, combined in column order. */
export function hashKeys(keys: readonly KeyColumn[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
  for (let c = 0; c < keys.length; c++) {
    const k = keys[c]!;
    if (k.kind === 'num') hashNumbers(k, n, out, c > 0);
    else if (k.kind === 'i64') hashInt64s(k, n, out, c > 0);
    else hashTexts(k, n, out, c > 0);
  }
  return out;
}

function combine(prev: number, h: number): number {
  return Math.imul(prev, FNV_PRIME) ^ h;
}

function hashNumbers(k: NumberKeys, n: number, out: Int32Array, after: boolean): void {
  const { values, valid, big } = k;
  for (let i = 0; i < n; i++) {
    const h =
      valid !== null && valid[i] === 0 ? NULL_HASH : big?.has(i) ? hashBigInt(big.get(i)!) : hashNumber(values[i]!);
    out[i] = after ? combine(out[i]!, h) : h;
  }
}

function hashInt64s(k: Int64Keys, n: number, out: Int32Array, after: boolean): void {
  const { pairs, valid } = k;
  for (let i = 0; i < n; i++) {
    const h = valid !== null && valid[i] === 0 ? NULL_HASH : hashHalves(pairs[2 * i]!, pairs[2 * i + 1]!);
    out[i] = after ? combine(out[i]!, h) : h;
  }
}

function hashTexts(k: TextKeys, n: number, out: Int32Array, after: boolean): void {
  const { strings, offsets, bytes, valid } = k;
  for (let i = 0; i < n; i++) {
    const h =
      valid !== null && valid[i] === 0
        ? NULL_HASH
        : strings !== null
          ? hashString(strings[i]!)
          : hashBytes(bytes, offsets[i]!, offsets[i + 1]!);
    out[i] = after ? combine(out[i]!, h) : h;
  }
}
