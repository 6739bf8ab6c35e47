// `mapAggregatesReadWhole`: rewrites every Aggregate whose output rows are all read, i.e. not below a LIMIT that
// may stop pulling early. Rules that move work from the aggregate into a projection above it need that: the
// projection raises PostgreSQL's errors (overflow, division by zero) only on the groups it is asked for.
import { type Aggregate, type LogicalPlan, planChildren, withInputs } from '../../plan/logical/index.js';

/**
 * Bottom-up; `f` returns the replacement or null. Sort, aggregate and window read their whole input, which ends
 * a LIMIT's reach.
 */
export function mapAggregatesReadWhole(p: LogicalPlan, f: (a: Aggregate) => LogicalPlan | null): LogicalPlan {
  return walk(p, false, f);
}

function walk(p: LogicalPlan, limited: boolean, f: (a: Aggregate) => LogicalPlan | null): LogicalPlan {
  const whole = p.kind === 'sort' || p.kind === 'aggregate' || p.kind === 'window';
  const below = p.kind === 'limit' ? true : whole ? false : limited;
  const kids = planChildren(p);
  const next =
    kids.length === 0
      ? p
      : withInputs(
          p,
          kids.map((k) => walk(k, below, f)),
        );
  if (next.kind !== 'aggregate' || limited) return next;
  return f(next) ?? next;
}
