// Shared building blocks for scalar kernels: element-wise maps over strings and numbers.
import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { andValidity } from '../../arrow/kernels/validity.js';
import type { DataType } from '../../plan/types.js';

/** Maps rows where every argument is valid; NULL in any argument gives NULL. */
export function mapRows<T>(
  args: readonly Column[],
  length: number,
  type: DataType,
  f: (i: number) => T,
  alloc: (n: number) => { [i: number]: T },
): Column {
  const valid = andValidity(args, length);
  const out = alloc(length);
  for (let i = 0; i < length; i++) if (valid === null || valid[i] === 1) out[i] = f(i);
  return makeColumn(type, out as unknown as Column['values'], valid, length);
}

export const UTF8_OUT = (n: number) => new Array<string>(n).fill('');
export const INT32_OUT = (n: number) => new Int32Array(n);
export const F64_OUT = (n: number) => new Float64Array(n);
export const BOOL_OUT = (n: number) => new Uint8Array(n);

/** String arguments as arrays, numeric ones as number arrays, for use inside `mapRows`. */
export function stringArg(c: Column): string[] {
  return strings(c);
}

export function numberArg(c: Column): ArrayLike<number> {
  return c.values as Int32Array | Float64Array;
}
