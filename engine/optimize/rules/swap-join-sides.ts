// swap-join-sides: a hash join builds its right side, so a LEFT join whose preserved side is much smaller than the
// other becomes a RIGHT join with the sides exchanged. A scalar subquery's "single" join qualifies when its
// subquery side is grouped by the join keys (one row per key, so no left row can meet two). A semi or anti join
// (EXISTS, NOT EXISTS, IN) with a much smaller left side is marked to build on the left.
import { type Expr, splitConjuncts } from '../../plan/expr/index.js';
import { type LogicalPlan, makeJoin, planChildren, projectToSchema, withInputs } from '../../plan/logical/index.js';
import { fieldIndex } from '../../plan/types.js';
import type { OptimizerContext, OptimizerRule } from '../rule.js';
import { estimateRows } from './estimate.js';

/** Swap only when the build side shrinks at least this much: estimates are rough. */
const MIN_GAIN = 2;

export const swapJoinSides: OptimizerRule = {
  name: 'swap-join-sides',
  apply: (plan, ctx) => swap(plan, ctx),
};

function swap(p: LogicalPlan, ctx: OptimizerContext): LogicalPlan {
  const kids = planChildren(p);
  const q =
    kids.length === 0
      ? p
      : withInputs(
          p,
          kids.map((k) => swap(k, ctx)),
        );
  if (q.kind === 'join' && (q.joinType === 'semi' || q.joinType === 'anti') && !q.nullAware && q.on !== null) {
    // No right semi/anti join type: the join keeps its sides and builds on the left instead.
    if (q.buildLeft || estimateRows(q.left, ctx) * MIN_GAIN > estimateRows(q.right, ctx)) return q;
    return makeJoin(q.joinType, q.left, q.right, q.on, { buildLeft: true });
  }
  if (q.kind !== 'join' || q.joinType !== 'left' || q.nullAware || q.on === null) return q;
  if (q.singleMatch && !uniqueOn(q.right, rightKeyColumns(q.on, q.right))) return q;
  if (estimateRows(q.left, ctx) * MIN_GAIN > estimateRows(q.right, ctx)) return q;
  return projectToSchema(makeJoin('right', q.right, q.left, q.on), q.schema);
}

type ColumnRef = { readonly qualifier: string | null; readonly name: string };

/** Columns of `side` that an equality of `on` compares with the other side. */
function rightKeyColumns(on: Expr, side: LogicalPlan): ColumnRef[] {
  const out: ColumnRef[] = [];
  for (const c of splitConjuncts(on)) {
    if (c.kind !== 'binary' || c.op !== '=') continue;
    for (const e of [c.left, c.right]) if (e.kind === 'column' && fieldAt(side, e) >= 0) out.push(e);
  }
  return out;
}

function fieldAt(p: LogicalPlan, c: ColumnRef): number {
  return fieldIndex(p.schema, c.qualifier, c.name);
}

/** Whether no two rows of `p` agree on all of `cols` (proved through projections, filters and grouping). */
export function uniqueOn(p: LogicalPlan, cols: readonly ColumnRef[]): boolean {
  switch (p.kind) {
    case 'filter':
    case 'sort':
    case 'limit':
      return uniqueOn(p.input, cols);
    case 'project': {
      const below: ColumnRef[] = [];
      for (const c of cols) {
        const e = p.exprs[fieldAt(p, c)];
        if (e?.kind === 'column') below.push(e);
      }
      return uniqueOn(p.input, below);
    }
    case 'aggregate': {
      if (p.groupingSets) return false;
      const keys = p.schema.fields.slice(0, p.groupBy.length);
      return keys.every((f) =>
        cols.some((c) => c.name === f.name && (c.qualifier === null || c.qualifier === f.qualifier)),
      );
    }
    default:
      return false;
  }
}
