// `compareScalar`: a numeric column against one constant (`l_shipdate < DATE '1995-01-01'`, `qty > 300`), without
// materialising the constant as a column. One loop per operator, compiled once per array type.
import { type Column, makeColumn } from '../column.js';
import { monomorphicCopy } from './monomorphic.js';
import { fixNaNScalar } from './nan-order.js';
import type { CmpOp } from './numeric.js';

/** `col op value`, or null when the column is not held as Int32Array / Float64Array (the caller falls back). */
export function compareScalar(op: CmpOp, col: Column, value: number): Column | null {
  const v = col.values;
  const n = col.length;
  const out = new Uint8Array(n);
  if (v instanceof Float64Array) {
    compareF64(op, v, value, out, n);
    // Only float8 holds NaN (decimals, dates and timestamps in a Float64Array never do).
    if (col.type.id === 'float64' || Number.isNaN(value)) fixNaNScalar(op, v, value, out, n);
  } else if (v instanceof Int32Array) compareI32(op, v, value, out, n);
  else return null;
  return makeColumn({ id: 'bool' }, out, col.valid, n);
}

/** The operator that gives the same answer with its operands exchanged (`5 < x` is `x > 5`). */
export function flipCmp(op: CmpOp): CmpOp {
  switch (op) {
    case '<':
      return '>';
    case '<=':
      return '>=';
    case '>':
      return '<';
    case '>=':
      return '<=';
    default:
      return op;
  }
}

/** `out[i] = x[i] op c`; one compiled copy per array type (a switch inside the loop would cost ~3x). */
function compareLoop(op: CmpOp, x: Float64Array | Int32Array, c: number, out: Uint8Array, n: number): void {
  switch (op) {
    case '=':
      for (let i = 0; i < n; i++) out[i] = x[i] === c ? 1 : 0;
      return;
    case '<>':
      for (let i = 0; i < n; i++) out[i] = x[i] !== c ? 1 : 0;
      return;
    case '<':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) < c ? 1 : 0;
      return;
    case '<=':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) <= c ? 1 : 0;
      return;
    case '>':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) > c ? 1 : 0;
      return;
    case '>=':
      for (let i = 0; i < n; i++) out[i] = (x[i] as number) >= c ? 1 : 0;
      return;
  }
}

const compareF64 = monomorphicCopy(compareLoop);
const compareI32 = monomorphicCopy(compareLoop);
