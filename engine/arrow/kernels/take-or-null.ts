// `takeOrNull` gathers rows by index where a negative index yields NULL: the outer joins' padding kernel.
import {
  type Column,
  type ColumnValues,
  decodedStrings,
  emptyValues,
  isUtf8Bytes,
  makeColumn,
  strings,
} from '../column.js';
import { takeUtf8 } from './utf8-take.js';

type Indices = Int32Array;

export function takeOrNull(col: Column, indices: Indices, n = indices.length): Column {
  const valid = new Uint8Array(n);
  const srcValid = col.valid;
  for (let i = 0; i < n; i++) {
    const at = indices[i] as number;
    valid[i] = at < 0 ? 0 : srcValid === null ? 1 : (srcValid[at] as number);
  }
  const v = col.values;
  let values: ColumnValues;
  // A source without values (a build side of no rows) still pads with its type's storage: kernels read it.
  if (v === null) values = emptyValues(col.type, n);
  else if (isUtf8Bytes(v) && n <= col.length && decodedStrings(col) === null) values = takeUtf8(v, indices, n);
  else if (Array.isArray(v) || 'offsets' in v) {
    const src = strings(col);
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const at = indices[i] as number;
      out[i] = at < 0 ? '' : (src[at] as string);
    }
    values = out;
  } else if (v instanceof BigInt64Array) {
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const at = indices[i] as number;
      out[i] = at < 0 ? 0n : (v[at] as bigint);
    }
    values = out;
  } else {
    const out = emptyValues(col.type, n) as Uint8Array | Int32Array | Float64Array;
    const src = v as Uint8Array | Int32Array | Float64Array;
    if (out.constructor !== src.constructor) {
      const Ctor = src.constructor as new (n: number) => typeof src;
      values = fill(src, new Ctor(n), indices, n);
    } else values = fill(src, out, indices, n);
  }
  return makeColumn(col.type, values, valid, n);
}

function fill<T extends Uint8Array | Int32Array | Float64Array>(src: T, out: T, indices: Indices, n: number): T {
  for (let i = 0; i < n; i++) {
    const at = indices[i] as number;
    out[i] = at < 0 ? 0 : (src[at] as number);
  }
  return out;
}
