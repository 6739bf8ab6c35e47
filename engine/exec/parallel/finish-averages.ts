// `finishAverages`: the output columns of a parallel aggregate from its merged partial columns, where each AVG
// arrives as a SUM and a COUNT (`partialAggregate`) and is divided as `SumAcc` divides it on one thread.
import { type Column, exactAt, makeColumn } from '../../arrow/column.js';
import type { Aggregate } from '../../plan/logical/index.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';

/** One expression per output column of `agg` (`g` group columns first) over the merged partial columns. */
export function finishAverages(agg: Aggregate, g: number): PhysicalExpr[] {
  const out: PhysicalExpr[] = [];
  for (let i = 0; i < g; i++) out.push({ evaluate: (b) => b.columns[i]! });
  let at = g;
  for (const call of agg.aggregates) {
    const i = at;
    if (call.fn !== 'avg') {
      out.push({ evaluate: (b) => b.columns[i]! });
      at += 1;
      continue;
    }
    const t = call.args[0]!.type;
    const scale = 10 ** (t.id === 'decimal' ? t.scale : 0);
    out.push({ evaluate: (b) => average(b.columns[i]!, b.columns[i + 1]!, scale, call.type) });
    at += 2;
  }
  return out;
}

/** sum ÷ 10^scale ÷ count per row, NULL where the count is 0 (or NULL: no partition saw a row of the group). */
function average(sum: Column, count: Column, scale: number, type: Column['type']): Column {
  const n = sum.length;
  const out = new Float64Array(n);
  const valid = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const c = count.valid === null || count.valid[r] === 1 ? Number(exactAt(count, r)) : 0;
    if (c === 0) continue;
    valid[r] = 1;
    out[r] = Number(exactAt(sum, r)) / scale / c;
  }
  return makeColumn(type, out, valid, n);
}
