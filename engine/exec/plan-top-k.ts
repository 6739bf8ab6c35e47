// `topKScanBound`: the scan a TopK's first key comes from unchanged, so the TopK can bound what that scan reads.
import type { ColumnExpr, Expr } from '../plan/expr/index.js';
import type { LogicalPlan, Scan, Sort } from '../plan/logical/index.js';
import { fieldAt } from './dynamic-filters.js';
import { isBoundable, TopKBound } from './operators/top-k-bound.js';

/**
 * For a TopK (`sort.fetch` set) whose first key is a column read unchanged from a scan, through filters and
 * projections only: that scan and a bound on its column. Rows a filter drops only make the K-th key later, so
 * skipping what cannot beat it stays exact. Null when the key is computed or comes through anything else.
 */
export function topKScanBound(sort: Sort): { scan: Scan; bound: TopKBound } | null {
  if (sort.fetch === null || sort.fetch === 0) return null;
  const key = sort.keys[0];
  if (key === undefined || key.expr.kind !== 'column' || !isBoundable(key.expr.type)) return null;
  const found = sourceScan(sort.input, key.expr);
  if (found === null) return null;
  const spec = { ascending: key.ascending, nullsFirst: key.nullsFirst };
  return { scan: found.scan, bound: new TopKBound(found.column, key.expr.type, spec) };
}

function sourceScan(p: LogicalPlan, column: ColumnExpr): { scan: Scan; column: string } | null {
  const i = fieldAt(p.schema, column);
  if (i < 0) return null;
  switch (p.kind) {
    case 'filter':
      return sourceScan(p.input, column);
    case 'project': {
      const e: Expr = p.exprs[i]!;
      return e.kind === 'column' ? sourceScan(p.input, e) : null;
    }
    case 'scan':
      return { scan: p, column: p.schema.fields[i]!.name };
    default:
      return null;
  }
}
