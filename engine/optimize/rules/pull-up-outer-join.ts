// Correlated conditions in or under a join that keeps unmatched rows (LEFT/RIGHT, and the semi, anti, mark and
// single joins that subqueries became): the kept side is joined to the distinct outer values first, and the
// conditions read those values inside the join, so that an unmatched row stays unmatched per outer value.
//   L LEFT JOIN R ON c(outer)  ->  (L × values) LEFT JOIN R ON c(values), joined back by values = outer
import { NotSupportedError } from '../../errors.js';
import { conjoin, type Expr, someExpr } from '../../plan/expr/index.js';
import { type Join, makeJoin } from '../../plan/logical/index.js';
import { type Outer, outerValues } from './join-outer-values.js';
import type { Pulled } from './pull-up-correlated.js';

const isCorrelated = (e: Expr) => someExpr(e, (x) => x.kind === 'outer_column');

/** `p` (not an inner join) over its pulled-up sides `l` and `r`, with its correlated conditions pulled up. */
export function pullUpOuterJoin(p: Join, l: Pulled, r: Pulled, o: Outer): Pulled {
  if (p.joinType === 'full')
    throw new NotSupportedError('a correlated reference inside a FULL JOIN of a subquery is not supported yet');
  const keepsRight = p.joinType === 'right';
  const [kept, other] = keepsRight ? [r, l] : [l, r];
  const onCorrelated = p.on !== null && isCorrelated(p.on);
  // Conditions on the kept side alone commute with the join: they stay above it.
  if (other.preds.length === 0 && !onCorrelated) {
    const plan = makeJoin(p.joinType, l.plan, r.plan, p.on, p);
    return { plan, preds: kept.preds };
  }
  const v = outerValues([...kept.preds, ...other.preds, ...(p.on ? [p.on] : [])], o);
  const keptPlan = makeJoin('inner', kept.plan, v.plan, conjoin(kept.preds.map(v.toValues)));
  // ON's own conjuncts first: a null-aware join's IN equality must stay the first.
  const on = conjoin([...(p.on ? [v.toValues(p.on)] : []), ...other.preds.map(v.toValues)]);
  const plan = keepsRight
    ? makeJoin('right', other.plan, keptPlan, on, p)
    : makeJoin(p.joinType, keptPlan, other.plan, on, p);
  return { plan, preds: v.preds };
}
