// Numeric functions: abs, round, floor, ceil (decimals stay exact).
import { type Column, makeColumn } from '../../arrow/column.js';
import { cast } from '../../arrow/kernels/cast.js';
import { type DataType, decimal, FLOAT64, INT32, isNumeric, typeName } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';

function unaryNumeric(name: string, f: (x: number) => number, keepsType: boolean): ScalarFunction {
  return {
    name,
    signature: (a) => {
      if (a.length !== 1 || !(isNumeric(a[0]!) || a[0]!.id === 'null'))
        return `${name}(${a.map(typeName).join(', ')}) does not exist`;
      const t = a[0]!.id === 'null' ? FLOAT64 : a[0]!;
      const returns = keepsType || t.id !== 'decimal' ? t : decimal(t.precision, 0);
      return { args: [t], returns };
    },
    evaluate: ([x], n, returns) => mapNumeric(x!, n, returns, f),
  };
}

/** Applies `f` to the column's numeric values (decimals: unscaled through `f`, rescaled to `returns`). */
function mapNumeric(x: Column, n: number, returns: DataType, f: (v: number) => number): Column {
  const src = x.values as Int32Array | Float64Array | BigInt64Array;
  const inScale = x.type.id === 'decimal' ? 10 ** x.type.scale : 1;
  const outScale = returns.id === 'decimal' ? 10 ** returns.scale : 1;
  const out = returns.id === 'int32' ? new Int32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (x.valid !== null && x.valid[i] === 0) continue;
    const v = Number(src[i]);
    // Scaled decimals: apply f to the scaled integer so abs/floor/ceil stay exact.
    out[i] = inScale === 1 ? f(v) : Math.round(f(v / inScale) * outScale);
  }
  return makeColumn(returns, out, x.valid, n);
}

/** round(x [, digits]): half away from zero, like PostgreSQL's numeric round. */
const round: ScalarFunction = {
  name: 'round',
  signature: (a) => {
    if (a.length < 1 || a.length > 2 || !isNumeric(a[0]!)) return `round(${a.map(typeName).join(', ')}) does not exist`;
    const t = a[0]!;
    if (a.length === 2 && t.id === 'decimal') return { args: [t, INT32], returns: t };
    if (a.length === 2) return { args: [FLOAT64, INT32], returns: FLOAT64 };
    return { args: [t], returns: t.id === 'decimal' ? decimal(t.precision, 0) : t };
  },
  evaluate: (args, n, returns) => {
    const x = args[0]!;
    const digits = args[1] ? (args[1].values as Int32Array) : null;
    if (x.type.id === 'decimal' && returns.id === 'decimal' && digits === null) return cast(x, returns);
    const scale = x.type.id === 'decimal' ? 10 ** x.type.scale : 1;
    const src = x.values as Int32Array | Float64Array;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const d = digits ? (digits[i] as number) : 0;
      const p = 10 ** d;
      const v = Number(src[i]) / scale;
      const r = (Math.sign(v) * Math.round(Math.abs(v) * p + 1e-9 * Math.abs(v) * p * Number.EPSILON)) / p;
      out[i] = x.type.id === 'decimal' ? Math.round(r * scale) : r;
    }
    return makeColumn(
      returns,
      returns.id === 'int32' ? Int32Array.from(out) : out,
      args[1] ? and(x, args[1]) : x.valid,
      n,
    );
  },
};

function and(a: Column, b: Column): Uint8Array | null {
  if (a.valid === null) return b.valid;
  if (b.valid === null) return a.valid;
  return a.valid.map((v, i) => v & (b.valid as Uint8Array)[i]!);
}

export const MATH_FUNCTIONS: readonly ScalarFunction[] = [
  unaryNumeric('abs', Math.abs, true),
  unaryNumeric('floor', Math.floor, false),
  unaryNumeric('ceil', Math.ceil, false),
  unaryNumeric('ceiling', Math.ceil, false),
  round,
];
