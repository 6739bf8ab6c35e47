// `selectCompare`: narrows a selection vector to the rows where `column op constant` holds, for numeric columns
// held as Float64Array or Int32Array. A filter's conjuncts run one after another over the rows still selected,
// so later conjuncts look at fewer rows and no boolean column is built. One generated loop per array kind,
// operator and pass (first pass over every row, or over a selection): each loop stays monomorphic.
import type { Column } from '../column.js';
import type { CmpOp } from './numeric.js';

type Values = Float64Array | Int32Array;
/** Writes the selected row indexes to `out`, returns how many. `sel` null = every row of 0..n. */
type Loop = (
  x: Values,
  c: number,
  valid: Uint8Array | null,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
) => number;

const OPS: Record<CmpOp, string> = { '=': '===', '<>': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

function generate(op: CmpOp): Loop {
  // NULL rows never pass: their values are garbage, so validity is checked with the comparison.
  const body = `
    let k = 0;
    if (sel === null) {
      if (valid === null) { for (let i = 0; i < n; i++) if (x[i] ${OPS[op]} c) out[k++] = i; }
      else { for (let i = 0; i < n; i++) if (x[i] ${OPS[op]} c && valid[i] === 1) out[k++] = i; }
    } else {
      if (valid === null) { for (let j = 0; j < n; j++) { const i = sel[j]; if (x[i] ${OPS[op]} c) out[k++] = i; } }
      else { for (let j = 0; j < n; j++) { const i = sel[j]; if (x[i] ${OPS[op]} c && valid[i] === 1) out[k++] = i; } }
    }
    return k;`;
  return new Function('x', 'c', 'valid', 'sel', 'n', 'out', body) as Loop;
}

// Separate copies for Float64Array and Int32Array inputs, so neither sees the other's element kind.
const LOOPS = {
  f64: Object.fromEntries(Object.keys(OPS).map((op) => [op, generate(op as CmpOp)])) as Record<CmpOp, Loop>,
  i32: Object.fromEntries(Object.keys(OPS).map((op) => [op, generate(op as CmpOp)])) as Record<CmpOp, Loop>,
};

/**
 * The rows of `sel` (or of the whole column when null; `n` = its length or the selection's) where `col op value`
 * holds, written into `out` (which may be `sel` itself); returns the count, or -1 when the column is not held as
 * Float64Array / Int32Array (the caller evaluates the comparison another way).
 */
export function selectCompare(
  op: CmpOp,
  col: Column,
  value: number,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
): number {
  const v = col.values;
  if (v instanceof Float64Array) return LOOPS.f64[op](v, value, col.valid, sel, n, out);
  if (v instanceof Int32Array) return LOOPS.i32[op](v, value, col.valid, sel, n, out);
  return -1;
}
