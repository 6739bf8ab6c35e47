// Arithmetic and comparison kernels over typed arrays; int64/decimal take a BigInt path only past ±2^53.
import { ExecError } from '../../errors.js';
import type { DataType } from '../../plan/types.js';
import { type Column, MAX_EXACT, makeColumn, narrowExact, strings, utf8BytesOf } from '../column.js';
import { fixNaNColumns } from './nan-order.js';
import { compareText } from './text-order.js';
import { compareUtf8Columns } from './utf8-compare.js';
import { andValidity } from './validity.js';

type Num = Int32Array | Float64Array;
type Exact = Int32Array | Float64Array | BigInt64Array;
export type ArithOp = '+' | '-' | '*' | '/' | '%';
export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** Values as float64 (decimals unscaled). Shares the array when it already is Float64. */
export function toFloat64(col: Column): Float64Array {
  const v = col.values;
  const scale = col.type.id === 'decimal' ? 10 ** col.type.scale : 1;
  if (v instanceof Float64Array && scale === 1) return v;
  const out = new Float64Array(col.length);
  if (v instanceof BigInt64Array) for (let i = 0; i < col.length; i++) out[i] = Number(v[i]) / scale;
  else if (v instanceof Int32Array || v instanceof Float64Array || v instanceof Uint8Array)
    for (let i = 0; i < col.length; i++) out[i] = (v[i] as number) / scale;
  return out;
}

/** `a op b` element-wise; the binder has cast both sides so that `type` follows from them. */
export function arithmetic(op: ArithOp, a: Column, b: Column, type: DataType): Column {
  const n = a.length;
  const valid = andValidity([a, b], n);
  if (type.id === 'float64') return makeColumn(type, floatArith(op, toFloat64(a), toFloat64(b), n, valid), valid, n);
  const x = a.values as Exact;
  const y = b.values as Exact;
  if (x instanceof BigInt64Array || y instanceof BigInt64Array)
    return makeColumn(type, bigArith(op, x, y, n, valid), valid, n);
  const out = exactArith(op, x as Num, y as Num, n, valid);
  if (out === null) return makeColumn(type, narrowExact(bigArith(op, x, y, n, valid)), valid, n);
  if (type.id === 'int32') return makeColumn(type, toInt32(out, valid), valid, n);
  return makeColumn(type, out, valid, n);
}

/**
 * `x[idx[j]] op y[idx[j]]` for j < n: `+`, `-` or `*` of two exact columns' rows picked by one index array (a
 * filter's few survivors), without first copying each operand down to those rows; null when a result leaves ±2^53
 * (the caller then takes `arithmetic` over the copies, which handles that).
 */
export function exactArithAt(
  op: '+' | '-' | '*',
  x: Int32Array | Float64Array | Int16Array | Int8Array,
  y: Int32Array | Float64Array | Int16Array | Int8Array,
  idx: Int32Array,
  n: number,
): Float64Array | null {
  const out = new Float64Array(n);
  let max = 0;
  if (op === '*') {
    for (let j = 0; j < n; j++) {
      const i = idx[j]!;
      const r = x[i]! * y[i]!;
      out[j] = r;
      max = Math.max(max, Math.abs(r));
    }
  } else {
    const s = op === '+' ? 1 : -1;
    for (let j = 0; j < n; j++) {
      const i = idx[j]!;
      const r = x[i]! + s * y[i]!;
      out[j] = r;
      max = Math.max(max, Math.abs(r));
    }
  }
  return max > MAX_EXACT ? null : out;
}

/**
 * `a op value` (or `value op a` when `literalFirst`) for a literal's stored value (scaled like `a` for decimals, as
 * the binder cast it), without a constant column: one load a row instead of two. Only +, - and * of exact types
 * over number arrays; null when that does not apply or a result leaves the exact range (the caller then takes
 * `arithmetic` over a constant column, which also handles NULL rows whose garbage overflows).
 */
export function arithmeticScalar(
  op: ArithOp,
  a: Column,
  value: number,
  literalFirst: boolean,
  type: DataType,
): Column | null {
  if (type.id === 'float64' || a.type.id === 'float64' || !Number.isSafeInteger(value)) return null;
  const x = a.values;
  if (!(x instanceof Float64Array || x instanceof Int32Array)) return null;
  const n = a.length;
  // x + v = x·1 + v, x - v = x·1 + (-v), v - x = x·(-1) + v, x · v = x·v + (-0): one loop (adding -0 keeps a -0
  // product, as the two-column kernel gives it). x·(±1) is exact, so the sum's range check covers the whole row.
  if (op === '+') return scalarColumn(linearScalar(x, 1, value, n), a, type);
  if (op === '-')
    return scalarColumn(literalFirst ? linearScalar(x, -1, value, n) : linearScalar(x, 1, -value, n), a, type);
  if (op === '*') return scalarColumn(linearScalar(x, value, -0, n), a, type);
  return null;
}

function scalarColumn(out: Float64Array | null, a: Column, type: DataType): Column | null {
  if (out === null) return null;
  return makeColumn(type, type.id === 'int32' ? toInt32(out, a.valid) : out, a.valid, a.length);
}

/** `x[i] * k + c` for every row; null when one leaves ±2^53. */
function linearScalar(x: Num, k: number, c: number, n: number): Float64Array | null {
  const out = new Float64Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const r = (x[i] as number) * k + c;
    out[i] = r;
    max = Math.max(max, Math.abs(r));
  }
  return max > MAX_EXACT ? null : out;
}

/** Integer (or scaled decimal) arithmetic in float64; null when a result leaves the exact range. */
function exactArith(op: ArithOp, x: Num, y: Num, n: number, valid: Uint8Array | null): Float64Array | null {
  const out = new Float64Array(n);
  let max = 0;
  // One loop per operator: a switch inside the loop costs ~3x.
  switch (op) {
    case '+':
      for (let i = 0; i < n; i++) {
        const r = (x[i] as number) + (y[i] as number);
        out[i] = r;
        max = Math.max(max, Math.abs(r));
      }
      break;
    case '-':
      for (let i = 0; i < n; i++) {
        const r = (x[i] as number) - (y[i] as number);
        out[i] = r;
        max = Math.max(max, Math.abs(r));
      }
      break;
    case '*':
      for (let i = 0; i < n; i++) {
        const r = (x[i] as number) * (y[i] as number);
        out[i] = r;
        max = Math.max(max, Math.abs(r));
      }
      break;
    default:
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        const r = numArith(op, x[i] as number, y[i] as number);
        out[i] = r;
        max = Math.max(max, Math.abs(r));
      }
  }
  // Garbage in NULL rows may overflow too; the BigInt path then recomputes only valid rows.
  return max > MAX_EXACT ? null : out;
}

function numArith(op: ArithOp, p: number, q: number): number {
  switch (op) {
    case '+':
      return p + q;
    case '-':
      return p - q;
    case '*':
      return p * q;
    case '/': {
      if (q === 0) throw new ExecError('division by zero');
      let t = Math.trunc(p / q);
      // Float division can round across an integer boundary near 2^53; correct with the remainder.
      const r = p - t * q;
      if (r !== 0 && Math.sign(r) !== Math.sign(p)) t += Math.sign(p) === Math.sign(q) ? -1 : 1;
      return t;
    }
    case '%':
      if (q === 0) throw new ExecError('division by zero');
      return p % q;
  }
}

function floatArith(op: ArithOp, x: Float64Array, y: Float64Array, n: number, valid: Uint8Array | null): Float64Array {
  const out = new Float64Array(n);
  switch (op) {
    case '+':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) + (y[i] as number);
      break;
    case '-':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) - (y[i] as number);
      break;
    case '*':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) * (y[i] as number);
      break;
    default:
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        if (y[i] === 0) throw new ExecError('division by zero');
        out[i] = op === '/' ? (x[i] as number) / (y[i] as number) : (x[i] as number) % (y[i] as number);
      }
  }
  if (op !== '%') checkFloatRange(op, x, y, out, n, valid);
  return out;
}

/**
 * PostgreSQL's float8 checks: a result that is infinite from finite operands overflows; a product or quotient that
 * is zero from non-zero finite operands underflows (IEEE would give ±Infinity and 0 silently).
 */
function checkFloatRange(
  op: ArithOp,
  x: Float64Array,
  y: Float64Array,
  out: Float64Array,
  n: number,
  valid: Uint8Array | null,
): void {
  for (let i = 0; i < n; i++) {
    const r = out[i]!;
    if (r - r === 0 && r !== 0) continue; // finite and non-zero: the common case, one test
    if (valid !== null && valid[i] === 0) continue;
    const a = x[i]!;
    const b = y[i]!;
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    if (!Number.isFinite(r) && !Number.isNaN(r)) throw new ExecError('value out of range: overflow');
    if (r === 0 && a !== 0 && (op === '*' ? b !== 0 : op === '/')) throw new ExecError('value out of range: underflow');
  }
}

const INT64_MAX = 2n ** 63n - 1n;

function bigArith(op: ArithOp, x: Exact, y: Exact, n: number, valid: Uint8Array | null): BigInt64Array {
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const p = BigInt(x[i] as number | bigint);
    const q = BigInt(y[i] as number | bigint);
    if ((op === '/' || op === '%') && q === 0n) throw new ExecError('division by zero');
    const r = op === '+' ? p + q : op === '-' ? p - q : op === '*' ? p * q : op === '/' ? p / q : p % q;
    if (r > INT64_MAX || r < -INT64_MAX) throw new ExecError('numeric value out of range');
    out[i] = r;
  }
  return out;
}

function toInt32(v: Float64Array, valid: Uint8Array | null): Int32Array {
  const out = new Int32Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number;
    if ((x > 2147483647 || x < -2147483648) && (valid === null || valid[i] === 1)) {
      throw new ExecError('integer out of range');
    }
    out[i] = x;
  }
  return out;
}

/** `a op b` for two columns of one type (the binder unified them); NULL when either side is NULL. */
export function compare(op: CmpOp, a: Column, b: Column): Column {
  const n = a.length;
  const valid = andValidity([a, b], n);
  const out = new Uint8Array(n);
  const t = a.type.id;
  const bytesA = t === 'utf8' ? utf8BytesOf(a) : null;
  const bytesB = bytesA !== null ? utf8BytesOf(b) : null;
  if (bytesA !== null && bytesB !== null) {
    // Both held as UTF-8: byte order is code point order.
    compareUtf8Columns(op, bytesA, bytesB, n, out);
  } else if (t === 'utf8' && op !== '=' && op !== '<>') {
    // Order by code point (UTF-8 byte order), not JavaScript's UTF-16 code units.
    const x = strings(a);
    const y = strings(b);
    for (let i = 0; i < n; i++) out[i] = cmpOne(op, compareText(x[i]!, y[i]!), 0);
  } else if (t === 'utf8') {
    cmpLoop(op, strings(a), strings(b), out, n);
  } else if (t === 'decimal' && b.type.id === 'decimal' && a.type.scale !== b.type.scale) {
    compareDecimalScales(op, a, b, out, n);
  } else if (t === 'float64' || a.type.id !== b.type.id) {
    const x = toFloat64(a);
    const y = toFloat64(b);
    cmpLoop(op, x, y, out, n);
    if (t === 'float64' || b.type.id === 'float64') fixNaNColumns(op, x, y, out, n);
  } else if (a.values instanceof BigInt64Array || b.values instanceof BigInt64Array) {
    const x = a.values as Exact;
    const y = b.values as Exact;
    for (let i = 0; i < n; i++) out[i] = cmpOne(op, BigInt(x[i] as number | bigint), BigInt(y[i] as number | bigint));
  } else if (a.values !== null && b.values !== null) {
    cmpLoop(op, a.values as Num, b.values as Num, out, n);
  }
  return makeColumn({ id: 'bool' }, out, valid, n);
}

/** Relative difference beyond which doubles rounded once (each within 2^-53 of exact) compare as the exact values. */
const DECISIVE = 2 ** -40;

/**
 * Decimals of different scales, compared exactly without a common-scale cast that could overflow 64 bits:
 * the side with the smaller scale is scaled up, in doubles while exact, else as BigInt. A side held as BigInt
 * (a wide decimal, as Q11's `sum(...) * 0.0001` at scale 12) is compared as a double first too: only the rows the
 * doubles cannot decide are compared as BigInt (every row as BigInt allocated several objects a row: Q11 spent
 * more time collecting them than comparing).
 */
function compareDecimalScales(op: CmpOp, a: Column, b: Column, out: Uint8Array, n: number): void {
  const sa = (a.type as { scale: number }).scale;
  const sb = (b.type as { scale: number }).scale;
  const x = a.values as Exact;
  const y = b.values as Exact;
  const up = 10 ** Math.abs(sa - sb);
  const upBig = 10n ** BigInt(Math.abs(sa - sb));
  for (let i = 0; i < n; i++) {
    const p = x[i] as number | bigint;
    const q = y[i] as number | bigint;
    // A BigInt past 2^53 becomes the nearest double (within 2^-53 of itself), and so stays out of the exact test.
    const pn = typeof p === 'number' ? p : Number(p);
    const qn = typeof q === 'number' ? q : Number(q);
    const ps = sa < sb ? pn * up : pn;
    const qs = sb < sa ? qn * up : qn;
    if (Math.abs(ps) <= Number.MAX_SAFE_INTEGER && Math.abs(qs) <= Number.MAX_SAFE_INTEGER) {
      out[i] = cmpOne(op, ps, qs);
      continue;
    }
    // Past 2^53 a side is rounded (twice at most: to a double, then scaled; each by at most 2^-53 of itself), but
    // two sides further apart than that still order the same way: only near-equal pairs need BigInt.
    if (Math.abs(ps - qs) > DECISIVE * (Math.abs(ps) + Math.abs(qs))) {
      out[i] = cmpOne(op, ps, qs);
      continue;
    }
    const pb = BigInt(p);
    const qb = BigInt(q);
    out[i] = cmpOne(op, sa < sb ? pb * upBig : pb, sb < sa ? qb * upBig : qb);
  }
}

function cmpOne<T extends number | bigint | string>(op: CmpOp, p: T, q: T): number {
  switch (op) {
    case '=':
      return p === q ? 1 : 0;
    case '<>':
      return p !== q ? 1 : 0;
    case '<':
      return p < q ? 1 : 0;
    case '<=':
      return p <= q ? 1 : 0;
    case '>':
      return p > q ? 1 : 0;
    case '>=':
      return p >= q ? 1 : 0;
  }
}

// One loop per operator keeps each loop monomorphic (a switch inside the loop costs ~3x).
function cmpLoop<T extends ArrayLike<number> | ArrayLike<string>>(
  op: CmpOp,
  x: T,
  y: T,
  out: Uint8Array,
  n: number,
): void {
  switch (op) {
    case '=':
      for (let i = 0; i < n; i++) out[i] = x[i] === y[i] ? 1 : 0;
      return;
    case '<>':
      for (let i = 0; i < n; i++) out[i] = x[i] !== y[i] ? 1 : 0;
      return;
    case '<':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) < (y[i] as number) ? 1 : 0;
      return;
    case '<=':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) <= (y[i] as number) ? 1 : 0;
      return;
    case '>':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) > (y[i] as number) ? 1 : 0;
      return;
    case '>=':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) >= (y[i] as number) ? 1 : 0;
      return;
  }
}
