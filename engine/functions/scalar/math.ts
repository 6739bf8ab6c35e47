// Numeric functions in double precision: sqrt, cbrt, exp, ln, log, log10, power, pi; and mod in the operands' type.
import { type Column, makeColumn } from '../../arrow/column.js';
import { arithmetic, toFloat64 } from '../../arrow/kernels/numeric.js';
import { andValidity } from '../../arrow/kernels/validity.js';
import { ExecError } from '../../errors.js';
import { type DataType, decimal, FLOAT64, INT32, INT64, isNumeric, typeName } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';

/**
 * PostgreSQL returns numeric from these for numeric input, with a data-dependent scale floe's 18-digit
 * decimals cannot hold; floe returns double precision for every input (as DuckDB does).
 */
function floatFn(name: string, arity: number, f: (...x: number[]) => number): ScalarFunction {
  return {
    name,
    signature: (a) =>
      a.length === arity && a.every((t) => isNumeric(t) || t.id === 'null')
        ? { args: a.map(() => FLOAT64), returns: FLOAT64 }
        : `function ${name}(${a.map(typeName).join(', ')}) does not exist`,
    evaluate: (args, n) => {
      const xs = args.map(toFloat64);
      const valid = andValidity(args, n);
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        const r = f(...xs.map((x) => x[i]!));
        if (!Number.isFinite(r) && xs.every((x) => Number.isFinite(x[i]!)))
          throw new ExecError('value out of range: overflow');
        out[i] = r;
      }
      return makeColumn(FLOAT64, out, valid, n);
    },
  };
}

function sqrt(x: number): number {
  if (x < 0) throw new ExecError('cannot take square root of a negative number');
  return Math.sqrt(x);
}

function logOf(f: (x: number) => number): (x: number) => number {
  return (x) => {
    if (x === 0) throw new ExecError('cannot take logarithm of zero');
    if (x < 0) throw new ExecError('cannot take logarithm of a negative number');
    return f(x);
  };
}

function power(x: number, y: number): number {
  if (x === 0 && y < 0) throw new ExecError('zero raised to a negative power is undefined');
  if (x < 0 && !Number.isInteger(y))
    throw new ExecError('a negative number raised to a non-integer power yields a complex result');
  return x ** y;
}

/** mod(a, b) is `a % b`: integers stay integers, decimals stay exact; the sign follows a. */
const mod: ScalarFunction = {
  name: 'mod',
  signature: (a) => {
    if (a.length !== 2 || !a.every((t) => isNumeric(t) || t.id === 'null'))
      return `function mod(${a.map(typeName).join(', ')}) does not exist`;
    const t = commonNumeric(a[0]!, a[1]!);
    return { args: [t, t], returns: t };
  },
  evaluate: ([a, b], _n, returns) => arithmetic('%', a!, b!, returns),
};

function commonNumeric(a: DataType, b: DataType): DataType {
  if (a.id === 'null') return b.id === 'null' ? INT32 : b;
  if (b.id === 'null') return a;
  if (a.id === 'float64' || b.id === 'float64') return FLOAT64;
  if (a.id === 'decimal' || b.id === 'decimal') {
    const digits = (t: DataType) => (t.id === 'decimal' ? t : { precision: t.id === 'int32' ? 10 : 19, scale: 0 });
    const x = digits(a);
    const y = digits(b);
    const scale = Math.max(x.scale, y.scale);
    return decimal(Math.max(x.precision - x.scale, y.precision - y.scale) + scale, scale);
  }
  return a.id === 'int64' || b.id === 'int64' ? INT64 : INT32;
}

const pi: ScalarFunction = {
  name: 'pi',
  signature: (a) => (a.length === 0 ? { args: [], returns: FLOAT64 } : 'pi() takes no arguments'),
  evaluate: (_args, n): Column => makeColumn(FLOAT64, new Float64Array(n).fill(Math.PI), null, n),
};

export const MATH_FUNCTIONS: readonly ScalarFunction[] = [
  floatFn('sqrt', 1, sqrt),
  floatFn('cbrt', 1, Math.cbrt),
  floatFn('exp', 1, Math.exp),
  floatFn('ln', 1, logOf(Math.log)),
  floatFn('log10', 1, logOf(Math.log10)),
  floatFn('power', 2, power),
  floatFn('pow', 2, power),
  floatFn('degrees', 1, (x) => (x * 180) / Math.PI),
  floatFn('radians', 1, (x) => (x * Math.PI) / 180),
  {
    ...floatFn('log', 1, logOf(Math.log10)),
    // log(x) is base 10; log(b, x) is base b.
    signature: (a) =>
      (a.length === 1 || a.length === 2) && a.every((t) => isNumeric(t) || t.id === 'null')
        ? { args: a.map(() => FLOAT64), returns: FLOAT64 }
        : `function log(${a.map(typeName).join(', ')}) does not exist`,
    evaluate: (args, n, returns) =>
      (args.length === 1
        ? floatFn('log', 1, logOf(Math.log10))
        : floatFn('log', 2, (b, x) => logOf(Math.log)(x!) / logOf(Math.log)(b!))
      ).evaluate(args, n, returns),
  },
  mod,
  pi,
];
