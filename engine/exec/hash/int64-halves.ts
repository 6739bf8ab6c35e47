// `int64Halves`: int64/decimal key values as int32 (lo, hi) pairs, so hash tables hash and compare them without a
// BigInt per row; a BigInt64Array is read in place through an Int32Array view of its buffer.
import { type Column, MAX_EXACT, makeColumn } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';

const TWO_32 = 2 ** 32;
/** hi * 2^32 + (lo >>> 0) is an exact double while hi is in [-2^21, 2^21). */
const HI_EXACT = 2 ** 21;

/**
 * Rows [0, n) of an int64/decimal column as pairs: entry 2i is row i's low 32 bits, 2i + 1 its high 32 bits (both
 * signed). `misfit` marks rows whose value is not an integer (a float column passed where int64 keys were declared;
 * such a row equals no int64 key), null when none. NULL rows hold anything.
 */
export interface Int64Halves {
  readonly pairs: Int32Array;
  readonly misfit: Uint8Array | null;
}

/**
 * The halves of rows [0, n) of `col` (numbers or int64 values): a view when BigInt64-backed (the platform is little
 * endian: V8 runs only there), else converted into `scratch` when it is long enough (2n entries).
 */
export function int64Halves(col: Column, n: number, scratch: Int32Array | null = null): Int64Halves {
  const v = col.values;
  if (v instanceof BigInt64Array) return { pairs: new Int32Array(v.buffer, v.byteOffset, 2 * n), misfit: null };
  const pairs = scratch !== null && scratch.length >= 2 * n ? scratch : new Int32Array(2 * n);
  if (v instanceof Int32Array) {
    for (let i = 0; i < n; i++) {
      const x = v[i]!;
      pairs[2 * i] = x;
      pairs[2 * i + 1] = x >> 31;
    }
    return { pairs, misfit: null };
  }
  if (v instanceof Float64Array) return { pairs, misfit: floatHalves(v, col.valid, n, pairs) };
  // Bools (0/1) and anything else numeric-like: their numbers.
  const u = v as Uint8Array;
  for (let i = 0; i < n; i++) {
    pairs[2 * i] = u[i]!;
    pairs[2 * i + 1] = 0;
  }
  return { pairs, misfit: null };
}

function floatHalves(v: Float64Array, valid: Uint8Array | null, n: number, pairs: Int32Array): Uint8Array | null {
  let misfit: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    // `x | 0` is x modulo 2^32 for any integer below 2^53 in magnitude; the division by 2^32 is exact.
    if (x >= -MAX_EXACT && x <= MAX_EXACT && x === Math.floor(x)) {
      pairs[2 * i] = x | 0;
      pairs[2 * i + 1] = Math.floor(x / TWO_32);
    } else if (x === Math.floor(x) && Math.abs(x) < 2 ** 63) {
      // An integer beyond 2^53 held as a double (columns keep those as bigints, but the value is exact).
      const b = BigInt(x);
      pairs[2 * i] = Number(BigInt.asIntN(32, b));
      pairs[2 * i + 1] = Number(BigInt.asIntN(32, b >> 32n));
    } else if (valid === null || valid[i] === 1) {
      misfit ??= new Uint8Array(n);
      misfit[i] = 1;
    }
  }
  return misfit;
}

/**
 * `size` pairs back as a column of `type`: Float64Array when every value is within ±2^53 (the columns' rule),
 * else BigInt64Array. Copies.
 */
export function halvesColumn(type: DataType, pairs: Int32Array, valid: Uint8Array | null, size: number): Column {
  const exact = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const hi = pairs[2 * i + 1]!;
    const x = hi * TWO_32 + (pairs[2 * i]! >>> 0);
    if (hi < -HI_EXACT || hi >= HI_EXACT || x > MAX_EXACT || x < -MAX_EXACT) {
      const big = new BigInt64Array(pairs.slice(0, 2 * size).buffer);
      if (valid !== null) for (let j = 0; j < size; j++) if (valid[j] === 0) big[j] = 0n;
      return makeColumn(type, big, valid, size);
    }
    exact[i] = valid !== null && valid[i] === 0 ? 0 : x;
  }
  return makeColumn(type, exact, valid, size);
}
