// `cast` converts a column to another type with PostgreSQL's rounding and error rules.
import { ExecError, NotSupportedError } from '../../errors.js';
import { type DataType, typeName } from '../../plan/types.js';
import { MS_PER_DAY, parseDate, parseTimestamp } from '../../plan/values.js';
import { type Column, MAX_EXACT, makeColumn, narrowExact, strings } from '../column.js';
import { cellText } from '../format.js';
import { toFloat64 } from './numeric.js';

const MICROS_PER_DAY = MS_PER_DAY * 1000;

export function cast(col: Column, to: DataType): Column {
  const from = col.type;
  if (from.id === 'null') return nullColumn(to, col.length);
  if (
    from.id === to.id &&
    (to.id !== 'decimal' || (from.id === 'decimal' && from.scale === to.scale && from.precision <= to.precision))
  )
    return makeColumn(to, col.values, col.valid, col.length);
  if (to.id === 'utf8') return toText(col);
  if (from.id === 'utf8') return fromText(col, to);
  // Interval columns hold PostgreSQL's text; no other type reads it.
  if (from.id === 'interval') throw new NotSupportedError(`cannot cast type interval to ${typeName(to)}`);
  const n = col.length;
  const map = (f: (i: number) => number, out: Int32Array | Float64Array | Uint8Array): Column => {
    for (let i = 0; i < n; i++) if (col.valid === null || col.valid[i] === 1) out[i] = f(i);
    return makeColumn(to, out, col.valid, n);
  };
  switch (to.id) {
    case 'float64': {
      if (from.id === 'bool') return map((i) => (col.values as Uint8Array)[i] as number, new Float64Array(n));
      return makeColumn(to, toFloat64(col), col.valid, n);
    }
    case 'int32':
    case 'int64': {
      const limit = to.id === 'int32' ? 2147483647 : MAX_EXACT;
      if (from.id === 'bool')
        return map(
          (i) => (col.values as Uint8Array)[i] as number,
          new (to.id === 'int32' ? Int32Array : Float64Array)(n),
        );
      const f = toFloat64(col);
      const round = from.id === 'float64' ? roundHalfEven : roundHalfAway;
      return map(
        (i) => checkRange(round(f[i] as number), limit, to),
        new (to.id === 'int32' ? Int32Array : Float64Array)(n),
      );
    }
    case 'decimal':
      return toDecimal(col, to.scale, to.precision, to);
    case 'bool':
      if (from.id === 'int32' || from.id === 'int64')
        return map((i) => (toFloat64(col)[i] !== 0 ? 1 : 0), new Uint8Array(n));
      break;
    case 'timestamp':
      if (from.id === 'date')
        return map((i) => ((col.values as Int32Array)[i] as number) * MICROS_PER_DAY, new Float64Array(n));
      break;
    case 'date':
      if (from.id === 'timestamp')
        return map((i) => Math.floor(((col.values as Float64Array)[i] as number) / MICROS_PER_DAY), new Int32Array(n));
      break;
  }
  throw new NotSupportedError(`cannot cast type ${typeName(from)} to ${typeName(to)}`);
}

function nullColumn(to: DataType, n: number): Column {
  const values =
    to.id === 'utf8'
      ? new Array<string>(n).fill('')
      : to.id === 'bool'
        ? new Uint8Array(n)
        : to.id === 'int32' || to.id === 'date'
          ? new Int32Array(n)
          : new Float64Array(n);
  return makeColumn(to, values, new Uint8Array(n), n);
}

function checkRange(x: number, limit: number, to: DataType): number {
  if (Number.isNaN(x) || x > limit || x < -limit - (to.id === 'int32' ? 1 : 0))
    throw new ExecError(`${typeName(to)} out of range`);
  return x;
}

/** PostgreSQL rounds float to int half to even (rint). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** PostgreSQL rounds numeric half away from zero. */
function roundHalfAway(x: number): number {
  return Math.sign(x) * Math.round(Math.abs(x));
}

const INT64_LIMIT = 2n ** 63n;

function toDecimal(col: Column, scale: number, precision: number, to: DataType): Column {
  const n = col.length;
  const from = col.type;
  const limit = 10 ** Math.min(precision, 18);
  if (from.id === 'float64') {
    const f = col.values as Float64Array;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (col.valid !== null && col.valid[i] === 0) continue;
      const x = f[i] as number;
      if (!Number.isFinite(x)) throw new ExecError(`cannot convert ${x} to numeric`);
      out[i] = roundHalfAway(Number((x * 10 ** scale).toPrecision(15)));
      if (Math.abs(out[i] as number) >= limit || Math.abs(out[i] as number) > MAX_EXACT)
        throw new ExecError('numeric field overflow');
    }
    return makeColumn(to, out, col.valid, n);
  }
  const fromScale = from.id === 'decimal' ? from.scale : 0;
  const v = col.values as Int32Array | Float64Array | BigInt64Array | Uint8Array;
  const shift = scale - fromScale;
  const big = v instanceof BigInt64Array;
  const out = new BigInt64Array(n);
  const p = 10n ** BigInt(Math.abs(shift));
  // floe stores decimals in 64 bits: a value past that overflows even when the declared precision allows it.
  const declared = 10n ** BigInt(precision);
  const bigLimit = declared < INT64_LIMIT ? declared : INT64_LIMIT;
  for (let i = 0; i < n; i++) {
    if (col.valid !== null && col.valid[i] === 0) continue;
    let x = BigInt(v[i] as number | bigint);
    if (shift > 0) x *= p;
    else if (shift < 0) {
      const q = x / p;
      const r = x - q * p;
      x = q + (2n * (r < 0n ? -r : r) >= p ? (x < 0n ? -1n : 1n) : 0n);
    }
    if (x >= bigLimit || x <= -bigLimit) throw new ExecError('numeric field overflow');
    out[i] = x;
  }
  if (!big && shift === 0 && !(v instanceof Uint8Array))
    return makeColumn(to, v instanceof Int32Array ? Float64Array.from(v) : v, col.valid, n);
  return makeColumn(to, narrowExact(out), col.valid, n);
}

function toText(col: Column): Column {
  const out = new Array<string>(col.length);
  for (let i = 0; i < col.length; i++) out[i] = cellText(col, i) ?? '';
  return makeColumn({ id: 'utf8' }, out, col.valid, col.length);
}

function fromText(col: Column, to: DataType): Column {
  const s = strings(col);
  const n = col.length;
  const parsed: (number | bigint | boolean)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (col.valid !== null && col.valid[i] === 0) continue;
    parsed[i] = parseText(s[i] as string, to);
  }
  if (to.id === 'bool')
    return makeColumn(
      to,
      Uint8Array.from(parsed, (x) => (x ? 1 : 0)),
      col.valid,
      n,
    );
  if (to.id === 'int32' || to.id === 'date')
    return makeColumn(
      to,
      Int32Array.from(parsed, (x) => Number(x ?? 0)),
      col.valid,
      n,
    );
  if (parsed.some((x) => typeof x === 'bigint'))
    return makeColumn(to, narrowExact(BigInt64Array.from(parsed, (x) => BigInt(x ?? 0))), col.valid, n);
  return makeColumn(
    to,
    Float64Array.from(parsed, (x) => Number(x ?? 0)),
    col.valid,
    n,
  );
}

const INT_RE = /^\s*[+-]?\d+\s*$/;
const NUM_RE = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/** Parses one text value as `to`, throwing PostgreSQL's `invalid input syntax` error. */
export function parseText(text: string, to: DataType): number | bigint | boolean {
  const bad = () => new ExecError(`invalid input syntax for type ${typeName(to)}: "${text}"`);
  switch (to.id) {
    case 'int32':
    case 'int64': {
      if (!INT_RE.test(text)) throw bad();
      const v = BigInt(text.trim());
      const limit = to.id === 'int32' ? 2147483647n : 2n ** 63n - 1n;
      if (v > limit || v < -limit - 1n) throw new ExecError(`value "${text}" is out of range for type ${typeName(to)}`);
      return v > BigInt(MAX_EXACT) || v < -BigInt(MAX_EXACT) ? v : Number(v);
    }
    case 'float64': {
      const t = text.trim().toLowerCase();
      if (t === 'nan') return Number.NaN;
      if (t === 'infinity' || t === 'inf' || t === '+infinity') return Number.POSITIVE_INFINITY;
      if (t === '-infinity' || t === '-inf') return Number.NEGATIVE_INFINITY;
      if (!NUM_RE.test(text) || !/\d/.test(text)) throw bad();
      const v = Number(t);
      // PostgreSQL: '1e400' is out of range, '1e-400' underflows (only a written zero is zero)
      if (!Number.isFinite(v) || (v === 0 && /[1-9]/.test(t.replace(/e.*$/, ''))))
        throw new ExecError(`"${text}" is out of range for type double precision`);
      return v;
    }
    case 'decimal':
      return (
        parseDecimalText(text, to.scale, to.precision) ??
        (() => {
          throw bad();
        })()
      );
    case 'bool': {
      const t = text.trim().toLowerCase();
      if (['t', 'true', 'yes', 'y', 'on', '1'].includes(t)) return true;
      if (['f', 'false', 'no', 'n', 'off', '0'].includes(t)) return false;
      throw bad();
    }
    case 'date': {
      const d = parseDate(text);
      if (d === null) throw new ExecError(`invalid input syntax for type date: "${text}"`);
      return d;
    }
    case 'timestamp': {
      const t = parseTimestamp(text);
      if (t === null) throw bad();
      return t;
    }
    default:
      throw new NotSupportedError(`cannot cast text to ${typeName(to)}`);
  }
}

/** Exact scaled integer for decimal text, rounded half away from zero to `scale`; null if not a number. */
export function parseDecimalText(text: string, scale: number, precision = 38): number | bigint | null {
  const m = NUM_RE.exec(text);
  if (!m || !/\d/.test(text)) return null;
  const [, sign, int = '', frac = '', exp = '0'] = m;
  let digits = (int + frac).replace(/^0+(?=\d)/, '') || '0';
  let pointShift = Number(exp) - frac.length + scale;
  let value: bigint;
  if (pointShift >= 0) value = BigInt(digits) * 10n ** BigInt(pointShift);
  else {
    pointShift = -pointShift;
    if (pointShift > digits.length) digits = '0'.repeat(pointShift - digits.length) + digits;
    const keep = digits.slice(0, digits.length - pointShift) || '0';
    const roundUp = Number(digits[digits.length - pointShift] ?? '0') >= 5;
    value = BigInt(keep) + (roundUp ? 1n : 0n);
  }
  if (sign === '-') value = -value;
  if (value >= 10n ** BigInt(precision) || value <= -(10n ** BigInt(precision)))
    throw new ExecError('numeric field overflow');
  return value > BigInt(MAX_EXACT) || value < -BigInt(MAX_EXACT) ? value : Number(value);
}
