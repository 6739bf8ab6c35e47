// AND / OR evaluate their right side only on rows the left side leaves open, so its errors (1/0, bad casts)
// cannot fire on rows the left side already decided.
import { makeBatch } from '../../arrow/batch.js';
import { type Column, makeColumn } from '../../arrow/column.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import { type Expr, someExpr } from '../../plan/expr/index.js';
import { and, or } from './logic.js';
import type { PhysicalExpr } from './physical-expr.js';

/** Whether evaluating `e` can raise an error on some input (division, casts, functions). */
export function mayRaise(e: Expr): boolean {
  return someExpr(
    e,
    (x) => x.kind === 'cast' || x.kind === 'call' || (x.kind === 'binary' && (x.op === '/' || x.op === '%')),
  );
}

/**
 * Whether evaluating `e` over rows a filter would drop can raise an error: as `mayRaise`, except that a cast of
 * a constant gives the same result on every row (so it raises on the rows that pass as well).
 */
export function mayRaiseOnRows(e: Expr): boolean {
  return someExpr(
    e,
    (x) =>
      (x.kind === 'cast' && x.expr.kind !== 'literal') ||
      x.kind === 'call' ||
      (x.kind === 'binary' && (x.op === '/' || x.op === '%')),
  );
}

export function shortCircuit(
  op: 'and' | 'or',
  left: PhysicalExpr,
  right: PhysicalExpr,
  rightMayRaise: boolean,
): PhysicalExpr {
  const combine = op === 'and' ? and : or;
  // The value that decides the row on its own: false for AND, true for OR.
  const decided = op === 'and' ? 0 : 1;
  return {
    evaluate(batch) {
      const l = left.evaluate(batch);
      if (!rightMayRaise) return combine(l, right.evaluate(batch));
      const open = openRows(l, decided);
      if (open.length === batch.length) return combine(l, right.evaluate(batch));
      if (open.length === 0) return l;
      const sub = makeBatch(batch.schema, gatherColumns(batch.columns, open, open.length, false), open.length);
      return combine(l, expand(right.evaluate(sub), open, batch.length, 1 - decided));
    },
  };
}

function openRows(l: Column, decided: number): Int32Array {
  const v = l.values as Uint8Array | null;
  const out = new Int32Array(l.length);
  let k = 0;
  for (let i = 0; i < l.length; i++) {
    const isDecided = v !== null && (l.valid === null || l.valid[i] === 1) && v[i] === decided;
    if (!isDecided) out[k++] = i;
  }
  return out.subarray(0, k);
}

/** A full-length boolean column: `sub` at `rows`, and the neutral value (valid) elsewhere. */
function expand(sub: Column, rows: Int32Array, n: number, neutral: number): Column {
  const values = new Uint8Array(n).fill(neutral);
  const valid = new Uint8Array(n).fill(1);
  const sv = sub.values as Uint8Array | null;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const ok = sub.type.id !== 'null' && (sub.valid === null || sub.valid[i] === 1);
    valid[r] = ok ? 1 : 0;
    values[r] = ok && sv ? sv[i]! : 0;
  }
  return makeColumn({ id: 'bool' }, values, valid, n);
}
