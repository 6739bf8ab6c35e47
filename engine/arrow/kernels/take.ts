// `take` gathers rows by index and `concatColumns` appends columns: the copying kernels of filter and sort.
import { type Column, type ColumnValues, decodedStrings, isUtf8Bytes, makeColumn, strings } from '../column.js';
import { narrowOfFloat64 } from '../narrow-values.js';
import { monomorphicCopy } from './monomorphic.js';
import { concatUtf8, takeUtf8 } from './utf8-take.js';

type Indices = Int32Array | Uint32Array;

/** Rows `indices[0..n)` of `col`, in that order. */
export function take(col: Column, indices: Indices, n = indices.length): Column {
  const valid = col.valid === null ? null : GATHER.u8(col.valid, new Uint8Array(n), indices, n);
  const v = col.values;
  let values: ColumnValues;
  if (v === null) values = null;
  else if (isUtf8Bytes(v) && n <= col.length && decodedStrings(col) === null) values = takeUtf8(v, indices, n);
  else if (Array.isArray(v) || 'offsets' in v) {
    // Strings already decoded (e.g. by a sort's comparator) are cheaper to gather than bytes to decode again,
    // and so are the rows of a small column gathered many times over (a join's build side): decoded once, memoized.
    const src = strings(col);
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = src[indices[i] as number] as string;
    values = out;
  } else if (v instanceof BigInt64Array) {
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++) out[i] = v[indices[i] as number] as bigint;
    values = out;
  } else {
    const src = v as Uint8Array | Int32Array | Float64Array;
    const narrow = narrowOfFloat64(src);
    if (narrow !== null) {
      // The same numbers from the column's one- or two-byte copy: a take of scattered rows reads an eighth or a
      // quarter of the bytes (q14's l_discount at the 75k rows a month of l_shipdate keeps of 6M: ~1.7 -> 0.1 ms).
      const gatherNarrow = narrow instanceof Int8Array ? GATHER.n8 : GATHER.n16;
      values = gatherNarrow(narrow, new Float64Array(n), indices, n);
    } else {
      const Ctor = src.constructor as new (n: number) => typeof src;
      values = gatherOf(src)(src, new Ctor(n), indices, n);
    }
  }
  return makeColumn(col.type, values, valid, n);
}

function gather<T extends Uint8Array | Int32Array | Float64Array>(src: T, out: T, indices: Indices, n: number): T {
  for (let i = 0; i < n; i++) out[i] = src[indices[i] as number] as number;
  return out;
}

/** `gather` from a narrow copy (`narrowOf`) into Float64 values. */
function gatherWide(src: Int8Array | Int16Array, out: Float64Array, indices: Indices, n: number): Float64Array {
  for (let i = 0; i < n; i++) out[i] = src[indices[i] as number] as number;
  return out;
}

/**
 * `gather` compiled once per array kind: one copy shared by validity bytes, Int32 and Float64 values goes
 * polymorphic, and a polymorphic gather of 75k scattered rows (TPC-H q14's filter survivors) measured 1.1-3x the
 * monomorphic one's time.
 */
const GATHER = {
  u8: monomorphicCopy(gather),
  i32: monomorphicCopy(gather),
  f64: monomorphicCopy(gather),
  n8: monomorphicCopy(gatherWide),
  n16: monomorphicCopy(gatherWide),
};

function gatherOf(src: Uint8Array | Int32Array | Float64Array): typeof gather {
  if (src instanceof Float64Array) return GATHER.f64;
  if (src instanceof Int32Array) return GATHER.i32;
  return src instanceof Uint8Array ? GATHER.u8 : gather;
}

/** Indices of rows where a boolean column is true (NULL counts as false). */
export function selectTrue(mask: Column): { indices: Int32Array; count: number } {
  const v = mask.values as Uint8Array | null;
  const valid = mask.valid;
  const indices = new Int32Array(mask.length);
  let count = 0;
  if (v === null) return { indices, count };
  if (valid === null) {
    for (let i = 0; i < mask.length; i++) if (v[i] === 1) indices[count++] = i;
  } else {
    for (let i = 0; i < mask.length; i++) if (v[i] === 1 && valid[i] === 1) indices[count++] = i;
  }
  return { indices, count };
}

/** One column holding the rows of `cols` one after another (all of the same type). */
export function concatColumns(cols: readonly Column[]): Column {
  if (cols.length === 1) return cols[0]!;
  const type = cols[0]!.type;
  const length = cols.reduce((n, c) => n + c.length, 0);
  const hasNulls = cols.some((c) => c.valid !== null || c.type.id === 'null');
  const valid = hasNulls ? new Uint8Array(length) : null;
  let at = 0;
  if (valid) {
    for (const c of cols) {
      if (c.type.id === 'null') valid.fill(0, at, at + c.length);
      else if (c.valid === null) valid.fill(1, at, at + c.length);
      else valid.set(c.valid.subarray(0, c.length), at);
      at += c.length;
    }
  }
  const first = cols[0]!.values;
  if (first === null) return makeColumn(type, null, valid, length);
  if (Array.isArray(first) || 'offsets' in first) {
    const bytes = concatUtf8(cols);
    if (bytes !== null) return makeColumn(type, bytes, valid, length);
    const out = new Array<string>(length);
    at = 0;
    for (const c of cols) {
      const s = strings(c);
      for (let i = 0; i < c.length; i++) out[at++] = s[i] as string;
    }
    return makeColumn(type, out, valid, length);
  }
  const big = cols.some((c) => c.values instanceof BigInt64Array);
  if (big) {
    const out = new BigInt64Array(length);
    at = 0;
    for (const c of cols) {
      const v = c.values as Float64Array | BigInt64Array;
      for (let i = 0; i < c.length; i++) out[at++] = BigInt(v[i] as number | bigint);
    }
    return makeColumn(type, out, valid, length);
  }
  const Ctor = first.constructor as new (n: number) => Uint8Array | Int32Array | Float64Array;
  const out = new Ctor(length);
  at = 0;
  for (const c of cols) {
    out.set((c.values as Uint8Array | Int32Array | Float64Array).subarray(0, c.length), at);
    at += c.length;
  }
  return makeColumn(type, out, valid, length);
}
