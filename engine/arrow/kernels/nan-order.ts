// PostgreSQL orders float NaN above every other number and equal to itself (`'NaN'::float8 = 'NaN'` is true);
// JavaScript's operators answer false for any NaN. These passes rewrite the rows a NaN decided.
import type { CmpOp } from './numeric.js';

/** `c op 0` for a three-way comparison result `c` (-1, 0, 1). */
function decide(op: CmpOp, c: number): number {
  switch (op) {
    case '=':
      return c === 0 ? 1 : 0;
    case '<>':
      return c !== 0 ? 1 : 0;
    case '<':
      return c < 0 ? 1 : 0;
    case '<=':
      return c <= 0 ? 1 : 0;
    case '>':
      return c > 0 ? 1 : 0;
    case '>=':
      return c >= 0 ? 1 : 0;
  }
}

/** Rewrites `out[i] = x[i] op y[i]` for the rows where either side is NaN. */
export function fixNaNColumns(op: CmpOp, x: Float64Array, y: Float64Array, out: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const a = x[i]!;
    const b = y[i]!;
    const nanA = Number.isNaN(a);
    const nanB = Number.isNaN(b);
    if (!nanA && !nanB) continue;
    out[i] = decide(op, nanA ? (nanB ? 0 : 1) : -1);
  }
}

/** Rewrites `out[i] = x[i] op c` for the rows a NaN decides (every row when `c` is NaN). */
export function fixNaNScalar(op: CmpOp, x: Float64Array, c: number, out: Uint8Array, n: number): void {
  if (Number.isNaN(c)) {
    for (let i = 0; i < n; i++) out[i] = decide(op, Number.isNaN(x[i]) ? 0 : -1);
    return;
  }
  for (let i = 0; i < n; i++) if (Number.isNaN(x[i])) out[i] = decide(op, 1);
}
