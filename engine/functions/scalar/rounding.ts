// round, trunc, floor, ceil, abs, sign: decimals stay exact (scaled-integer arithmetic), as PostgreSQL's numeric.
import { type Column, makeColumn, narrowExact } from '../../arrow/column.js';
import { andValidity } from '../../arrow/kernels/validity.js';
import { ExecError } from '../../errors.js';
import {
  type DataType,
  decimal,
  FLOAT64,
  INT32,
  isInteger,
  isNumeric,
  MAX_DECIMAL_PRECISION,
  typeName,
} from '../../plan/types.js';
import type { Resolved, ScalarFunction } from '../function.js';

type Mode = 'round' | 'trunc' | 'floor' | 'ceil';
type Scaled = Float64Array | BigInt64Array | Int32Array;

/** Scaled integer `v` divided by 10^shift, rounded by `mode` (round: half away from zero). Exact below 2^53. */
function shiftDown(v: number, shift: number, mode: Mode): number {
  if (shift <= 0) return v * 10 ** -shift;
  const f = 10 ** shift;
  const r = v % f;
  const q = (v - r) / f;
  if (r === 0) return q;
  if (mode === 'round') return 2 * Math.abs(r) >= f ? q + Math.sign(v) : q;
  if (mode === 'floor') return r < 0 ? q - 1 : q;
  if (mode === 'ceil') return r > 0 ? q + 1 : q;
  return q;
}

function shiftDownBig(v: bigint, shift: number, mode: Mode): bigint {
  if (shift <= 0) return v * 10n ** BigInt(-shift);
  const f = 10n ** BigInt(shift);
  const r = v % f;
  const q = v / f;
  if (r === 0n) return q;
  const neg = v < 0n;
  if (mode === 'round') return 2n * (neg ? -r : r) >= f ? q + (neg ? -1n : 1n) : q;
  if (mode === 'floor') return neg ? q - 1n : q;
  if (mode === 'ceil') return neg ? q : q + 1n;
  return q;
}

/** The result type of round/trunc(decimal(p,s), d): scale max(d, 0), or the input's when d is not constant. */
function roundedDecimal(t: { precision: number; scale: number }, digits: unknown): DataType {
  if (typeof digits !== 'number') return decimal(t.precision, t.scale);
  const scale = Math.max(digits, 0);
  const precision = t.precision - t.scale + scale + 1;
  // floe decimals hold 18 digits: past that, keep the input scale (PostgreSQL would show trailing zeros).
  if (scale > t.scale && precision > MAX_DECIMAL_PRECISION) return decimal(t.precision, t.scale);
  return decimal(Math.min(precision, 38), scale);
}

function roundingFn(name: string, mode: Mode): ScalarFunction {
  const maxArgs = mode === 'round' || mode === 'trunc' ? 2 : 1;
  return {
    name,
    signature: (a, constants): Resolved | string => {
      const t = a[0]?.id === 'null' ? FLOAT64 : a[0];
      if (!t || a.length > maxArgs || !isNumeric(t) || (a[1] && !isInteger(a[1]) && a[1].id !== 'null'))
        return `function ${name}(${a.map(typeName).join(', ')}) does not exist`;
      // With digits, integers round as numeric: round(1234, -2) = 1200 (PostgreSQL has no round(int, int)).
      const x = isInteger(t) && a.length === 2 ? decimal(t.id === 'int32' ? 10 : MAX_DECIMAL_PRECISION, 0) : t;
      const args = a.length === 2 ? [x, INT32] : [x];
      if (x.id === 'decimal') return { args, returns: roundedDecimal(x, a.length === 2 ? constants[1] : 0) };
      return { args, returns: x };
    },
    evaluate: (args, n, returns) => {
      const x = args[0]!;
      const digits = args[1] ? (args[1].values as Int32Array) : null;
      const valid = andValidity(args, n);
      if (x.type.id === 'decimal' && returns.id === 'decimal') return roundDecimal(x, digits, returns, mode, valid);
      return roundNumber(x, digits, returns, mode, valid);
    },
  };
}

function roundDecimal(x: Column, digits: Int32Array | null, returns: DataType, mode: Mode, valid: Uint8Array | null) {
  const inScale = x.type.id === 'decimal' ? x.type.scale : 0;
  const outScale = returns.id === 'decimal' ? returns.scale : 0;
  const src = x.values as Scaled;
  const n = x.length;
  const big = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const d = clampDigits(digits ? digits[i]! : outScale, Math.max(inScale, outScale));
    const v = src[i]!;
    // Round at d digits, then express at the output scale (they differ only when d is not constant).
    const q = typeof v === 'bigint' ? shiftDownBig(v, inScale - d, mode) : BigInt(shiftDown(v, inScale - d, mode));
    big[i] = shiftDownBig(q, d - outScale, 'trunc');
  }
  return makeColumn(returns, narrowExact(big), valid, n);
}

/**
 * Digits past the value's own scale change nothing, and more than 40 below the point leave 0 (an 18-digit value is
 * under 10^19): clamping keeps 10^shift small whatever `d` asks (round(1, -2147483648) is 0, as in PostgreSQL).
 */
function clampDigits(d: number, maxScale: number): number {
  return Math.max(-40, Math.min(d, maxScale));
}

const FLOAT_MODES: Record<Mode, (v: number) => number> = {
  // PostgreSQL's round(double precision) is rint(): half to even.
  round: (v) => {
    const r = Math.round(v);
    return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
  },
  trunc: Math.trunc,
  floor: Math.floor,
  ceil: Math.ceil,
};

function roundNumber(x: Column, digits: Int32Array | null, returns: DataType, mode: Mode, valid: Uint8Array | null) {
  const src = x.values as Float64Array | Int32Array | BigInt64Array;
  const n = x.length;
  if (returns.id !== 'float64') return makeColumn(returns, src, x.valid === valid ? x.valid : valid, n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const v = Number(src[i]);
    if (digits === null) out[i] = FLOAT_MODES[mode](v);
    else {
      // round(double, d) is floe's (and DuckDB's) extension: half away from zero at d digits.
      // Past 15 digits a double has no more places to round: the value stays (10 ** 400 would be Infinity).
      const d = digits[i]!;
      if (d > 15 || !Number.isFinite(v)) {
        out[i] = v;
        continue;
      }
      if (d < -308) {
        out[i] = 0;
        continue;
      }
      const p = 10 ** d;
      const scaled = Math.abs(v) * p;
      const r = mode === 'round' ? Math.round(scaled) : Math.trunc(scaled);
      out[i] = (Math.sign(v) * r) / p;
    }
  }
  return makeColumn(returns, out, valid, n);
}

/** abs: integer overflow (abs of the minimum value) is an error, as in PostgreSQL. */
const abs: ScalarFunction = {
  name: 'abs',
  signature: (a) =>
    a.length === 1 && (isNumeric(a[0]!) || a[0]!.id === 'null')
      ? { args: [a[0]!.id === 'null' ? FLOAT64 : a[0]!], returns: a[0]!.id === 'null' ? FLOAT64 : a[0]! }
      : `function abs(${a.map(typeName).join(', ')}) does not exist`,
  evaluate: ([x], n, returns) => absColumn(x!, n, returns),
};

/** sign: -1, 0 or 1 in the argument's type (PostgreSQL: numeric for numeric, double for the rest). */
const sign: ScalarFunction = {
  name: 'sign',
  signature: (a) => {
    const t = a[0];
    if (a.length !== 1 || !t || !(isNumeric(t) || t.id === 'null'))
      return `function sign(${a.map(typeName).join(', ')}) does not exist`;
    if (t.id === 'decimal') return { args: [t], returns: decimal(1, 0) };
    return { args: [t.id === 'null' ? FLOAT64 : t], returns: t.id === 'int64' || t.id === 'null' ? FLOAT64 : t };
  },
  evaluate: ([x], n, returns) => {
    const src = x!.values as Scaled;
    const out = returns.id === 'int32' ? new Int32Array(n) : new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = src[i]!;
      out[i] = typeof v === 'bigint' ? Number(v > 0n) - Number(v < 0n) : Number.isNaN(v) ? v : Math.sign(v);
    }
    return makeColumn(returns, out, x!.valid, n);
  },
};

function absColumn(x: Column, n: number, returns: DataType): Column {
  const src = x.values as Scaled;
  const isInt32 = returns.id === 'int32';
  const out = isInt32 ? new Int32Array(n) : src instanceof BigInt64Array ? new BigInt64Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (x.valid !== null && x.valid[i] === 0) continue;
    const v = src[i]!;
    if (typeof v === 'bigint') {
      if (v === -(2n ** 63n)) throw new ExecError('bigint out of range');
      (out as BigInt64Array)[i] = v < 0n ? -v : v;
      continue;
    }
    if (isInt32 && v === -2147483648) throw new ExecError('integer out of range');
    (out as Float64Array | Int32Array)[i] = Math.abs(v);
  }
  return makeColumn(returns, out instanceof BigInt64Array ? narrowExact(out) : out, x.valid, n);
}

export const ROUNDING_FUNCTIONS: readonly ScalarFunction[] = [
  roundingFn('round', 'round'),
  roundingFn('trunc', 'trunc'),
  roundingFn('floor', 'floor'),
  roundingFn('ceil', 'ceil'),
  roundingFn('ceiling', 'ceil'),
  abs,
  sign,
];
