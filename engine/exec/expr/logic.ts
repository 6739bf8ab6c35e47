// Three-valued logic kernels: AND, OR, NOT, IS [NOT] NULL/TRUE/FALSE, and numeric negation.
import { type Column, makeColumn } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import type { UnaryOp } from '../../plan/expr/index.js';

const BOOL = { id: 'bool' } as const;

/** A bool column's values (all 0 for the NULL type) and validity (`null`: no NULL row). */
function bools(c: Column): { v: Uint8Array; valid: Uint8Array | null } {
  if (c.type.id === 'null') return { v: new Uint8Array(c.length), valid: new Uint8Array(c.length) };
  return { v: (c.values as Uint8Array | null) ?? new Uint8Array(c.length), valid: c.valid };
}

/** SQL AND: false wins over NULL, NULL wins over true. */
export function and(a: Column, b: Column): Column {
  const n = a.length;
  const { v: x, valid: va } = bools(a);
  const { v: y, valid: vb } = bools(b);
  const out = new Uint8Array(n);
  if (va === null && vb === null) {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) & (y[i] as number);
    return makeColumn(BOOL, out, null, n);
  }
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const ao = va === null ? 1 : (va[i] as number);
    const bo = vb === null ? 1 : (vb[i] as number);
    const isFalse = (ao & (x[i] === 0 ? 1 : 0)) | (bo & (y[i] === 0 ? 1 : 0));
    const isTrue = ao & bo & (x[i] === 1 ? 1 : 0) & (y[i] === 1 ? 1 : 0);
    out[i] = isTrue;
    valid[i] = isFalse | isTrue;
  }
  return makeColumn(BOOL, out, valid, n);
}

/** SQL OR: true wins over NULL, NULL wins over false. */
export function or(a: Column, b: Column): Column {
  const n = a.length;
  const { v: x, valid: va } = bools(a);
  const { v: y, valid: vb } = bools(b);
  const out = new Uint8Array(n);
  if (va === null && vb === null) {
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) | (y[i] as number);
    return makeColumn(BOOL, out, null, n);
  }
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const ao = va === null ? 1 : (va[i] as number);
    const bo = vb === null ? 1 : (vb[i] as number);
    const isTrue = (ao & (x[i] === 1 ? 1 : 0)) | (bo & (y[i] === 1 ? 1 : 0));
    out[i] = isTrue;
    valid[i] = isTrue | (ao & bo);
  }
  return makeColumn(BOOL, out, valid, n);
}

export function not(a: Column): Column {
  const v = (a.values as Uint8Array | null) ?? new Uint8Array(a.length);
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = v[i] ? 0 : 1;
  return makeColumn(BOOL, out, a.type.id === 'null' ? new Uint8Array(a.length) : a.valid, a.length);
}

/** IS [NOT] NULL / TRUE / FALSE: never NULL itself. */
export function isPredicate(op: UnaryOp, a: Column): Column {
  const n = a.length;
  const { v, valid: va } = bools(a);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const valid = va === null || va[i] === 1;
    switch (op) {
      case 'is_null':
        out[i] = valid ? 0 : 1;
        break;
      case 'is_not_null':
        out[i] = valid ? 1 : 0;
        break;
      case 'is_true':
        out[i] = valid && v[i] === 1 ? 1 : 0;
        break;
      case 'is_false':
        out[i] = valid && v[i] === 0 ? 1 : 0;
        break;
      case 'is_not_true':
        out[i] = valid && v[i] === 1 ? 0 : 1;
        break;
      case 'is_not_false':
        out[i] = valid && v[i] === 0 ? 0 : 1;
        break;
      default:
        throw new ExecError(`unexpected predicate ${op}`);
    }
  }
  return makeColumn(BOOL, out, null, n);
}

export function negate(a: Column): Column {
  const v = a.values;
  if (v === null) return a;
  if (v instanceof BigInt64Array)
    return makeColumn(
      a.type,
      v.map((x) => -x),
      a.valid,
      a.length,
    );
  if (v instanceof Int32Array) {
    const out = new Int32Array(a.length);
    for (let i = 0; i < a.length; i++) {
      if (v[i] === -2147483648 && (a.valid === null || a.valid[i] === 1)) throw new ExecError('integer out of range');
      out[i] = -(v[i] as number);
    }
    return makeColumn(a.type, out, a.valid, a.length);
  }
  return makeColumn(
    a.type,
    (v as Float64Array).map((x) => -x),
    a.valid,
    a.length,
  );
}
