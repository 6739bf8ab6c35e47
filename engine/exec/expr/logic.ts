// Three-valued logic kernels: AND, OR, NOT, IS [NOT] NULL/TRUE/FALSE, and numeric negation.
import { type Column, makeColumn } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import type { UnaryOp } from '../../plan/expr/index.js';

const BOOL = { id: 'bool' } as const;

function bits(c: Column): { v: Uint8Array; ok: (i: number) => boolean } {
  const v = (c.values as Uint8Array | null) ?? new Uint8Array(c.length);
  const valid = c.type.id === 'null' ? new Uint8Array(c.length) : c.valid;
  return { v, ok: valid === null ? () => true : (i) => valid[i] === 1 };
}

/** SQL AND: false wins over NULL, NULL wins over true. */
export function and(a: Column, b: Column): Column {
  const n = a.length;
  if (a.valid === null && b.valid === null && a.type.id !== 'null' && b.type.id !== 'null') {
    const x = a.values as Uint8Array;
    const y = b.values as Uint8Array;
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = (x[i] as number) & (y[i] as number);
    return makeColumn(BOOL, out, null, n);
  }
  const A = bits(a);
  const B = bits(b);
  const out = new Uint8Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const af = A.ok(i) && A.v[i] === 0;
    const bf = B.ok(i) && B.v[i] === 0;
    if (af || bf) valid[i] = 1;
    else if (A.ok(i) && B.ok(i)) {
      valid[i] = 1;
      out[i] = 1;
    }
  }
  return makeColumn(BOOL, out, valid, n);
}

/** SQL OR: true wins over NULL, NULL wins over false. */
export function or(a: Column, b: Column): Column {
  const n = a.length;
  const A = bits(a);
  const B = bits(b);
  const out = new Uint8Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const at = A.ok(i) && A.v[i] === 1;
    const bt = B.ok(i) && B.v[i] === 1;
    if (at || bt) {
      valid[i] = 1;
      out[i] = 1;
    } else if (A.ok(i) && B.ok(i)) valid[i] = 1;
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
  const { v, ok } = bits(a);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const valid = a.type.id === 'null' ? false : ok(i);
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
