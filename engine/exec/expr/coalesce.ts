// COALESCE evaluated lazily, as PostgreSQL does: an argument runs only on the rows every earlier one left NULL, so
// `COALESCE(x, 1/0)` raises only where x is NULL.
import type { Column } from '../../arrow/column.js';
import type { CallExpr } from '../../plan/expr/index.js';
import type { PhysicalExpr } from './physical-expr.js';
import { assemble, identity, type Part, pick, subset } from './row-parts.js';

/** Argument k runs over the rows arguments 0..k-1 left NULL; the rows the last one leaves NULL stay NULL. */
export function lazyCoalesce(e: CallExpr, args: readonly PhysicalExpr[]): PhysicalExpr {
  return {
    evaluate(batch) {
      const n = batch.length;
      const parts: Part[] = [];
      let rows = identity(n);
      let current = batch;
      for (const arg of args) {
        const src = arg.evaluate(current);
        const local = identity(rows.length);
        parts.push({ src, rows, local });
        const open = nullRows(src);
        if (open.length === 0) break;
        rows = pick(rows, open);
        current = subset(current, open);
      }
      return assemble(parts, e.type, n);
    },
  };
}

function nullRows(c: Column): Int32Array {
  if (c.type.id === 'null') return identity(c.length);
  const valid = c.valid;
  if (valid === null) return new Int32Array(0);
  const out = new Int32Array(c.length);
  let k = 0;
  for (let i = 0; i < c.length; i++) if (valid[i] !== 1) out[k++] = i;
  return out.subarray(0, k);
}
