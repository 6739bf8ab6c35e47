// What an aggregate subquery without GROUP BY returns for an outer row none of its rows correlate with.
import { type Expr, lit, transformExpr } from '../../plan/expr/index.js';
import type { LogicalPlan, Project } from '../../plan/logical/index.js';
import { INT64, sameType } from '../../plan/types.js';
import type { OptimizerContext } from '../rule.js';
import { foldExpr } from './fold-constants.js';

/**
 * What column `column` of a scalar aggregate subquery returns over no rows (COUNT → 0, most others NULL), when that is not NULL:
 * a left join yields NULL for outer rows without a group, so the join's reader substitutes this value.
 */
export function valueOverNoRows(p: LogicalPlan, ctx: OptimizerContext, column = 0): Expr | null {
  // ORDER BY and LIMIT n ≥ 1 keep an aggregate's one row (OFFSET drops it: NULL).
  if (p.kind === 'sort' || (p.kind === 'limit' && p.skip === 0 && p.fetch !== 0))
    return valueOverNoRows(p.input, ctx, column);
  if (p.kind === 'project' && p.input.kind === 'project') return valueOverNoRows(compose(p, column), ctx);
  if (p.kind !== 'project' || p.input.kind !== 'aggregate' || p.input.groupBy.length > 0) return null;
  const agg = p.input;
  const empty = new Map<string, Expr>();
  for (const a of agg.aggregates) empty.set(a.name, a.fn === 'count' ? lit(0, INT64) : lit(null, a.type));
  const substituted = transformExpr(p.exprs[column]!, (x) =>
    x.kind === 'column' && x.qualifier === null && empty.has(x.name) ? castLike(empty.get(x.name)!, x) : x,
  );
  const folded = foldExpr(substituted, ctx);
  return folded.kind === 'literal' && folded.value === null ? null : folded;
}

/** Column `column` of two stacked projections as one projection over the lower one's input. */
function compose(p: Project, column: number): Project {
  const inner = p.input as Project;
  const fields = inner.schema.fields;
  const expr = transformExpr(p.exprs[column]!, (x) => {
    if (x.kind !== 'column') return x;
    const at = fields.findIndex((f) => f.name === x.name && (x.qualifier === null || f.qualifier === x.qualifier));
    return at < 0 ? x : inner.exprs[at]!;
  });
  return { ...inner, exprs: [expr], schema: { fields: [p.schema.fields[column]!] } };
}

/** Whether `p` always returns exactly one row: an aggregate without GROUP BY under projections, ORDER BY, LIMIT n ≥ 1. */
export function isScalarAggregate(p: LogicalPlan): boolean {
  if (p.kind === 'project' || p.kind === 'sort') return isScalarAggregate(p.input);
  if (p.kind === 'limit') return p.skip === 0 && p.fetch !== 0 && isScalarAggregate(p.input);
  return p.kind === 'aggregate' && p.groupBy.length === 0 && !p.groupingSets;
}

function castLike(v: Expr, like: Expr): Expr {
  if (sameType(v.type, like.type)) return v;
  return v.kind === 'literal' && v.value === null ? lit(null, like.type) : { kind: 'cast', expr: v, type: like.type };
}
