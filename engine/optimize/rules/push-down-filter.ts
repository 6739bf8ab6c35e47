// push-down-filter: moves filter conjuncts toward the scan and hands them to it for row-group pruning.
import { exprText } from '../../plan/expr/display.js';
import { columnsOf, conjoin, type Expr, splitConjuncts, transformExpr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeFilter, transformPlan } from '../../plan/logical/index.js';
import type { OptimizerRule } from '../rule.js';

export const pushDownFilter: OptimizerRule = {
  name: 'push-down-filter',
  apply: (plan) => transformPlan(plan, push),
};

function push(p: LogicalPlan): LogicalPlan {
  if (p.kind !== 'filter') return p;
  const input = p.input;
  switch (input.kind) {
    // Filter(a) over Filter(b) -> Filter(b AND a)
    case 'filter':
      return push(makeFilter(input.input, conjoin([input.predicate, p.predicate])!));
    // Filter over Scan -> Filter over Scan(filters=conjuncts); the Filter stays: pruning skips row groups, not rows
    case 'scan': {
      const known = new Set(input.filters.map(exprText));
      const fresh = splitConjuncts(p.predicate).filter((c) => !known.has(exprText(c)));
      return { ...p, input: { ...input, filters: [...input.filters, ...fresh] } };
    }
    // Filter over Project of plain columns -> Project over Filter (the predicate rewritten to the input's names)
    case 'project': {
      const substituted = substitute(p.predicate, input);
      if (!substituted) return p;
      return { ...input, input: push(makeFilter(input.input, substituted)) };
    }
    // Filter over Aggregate: conjuncts on group columns only go below it
    case 'aggregate': {
      const groupNames = new Set(
        input.schema.fields.slice(0, input.groupBy.length).map((f) => key(f.qualifier, f.name)),
      );
      const below: Expr[] = [];
      const above: Expr[] = [];
      for (const c of splitConjuncts(p.predicate)) {
        const onGroups = columnsOf(c).every((x) => groupNames.has(key(x.qualifier, x.name)));
        const mapped = onGroups ? substituteGroups(c, input) : null;
        (mapped ? below : above).push(mapped ?? c);
      }
      if (below.length === 0) return p;
      const pushed = { ...input, input: push(makeFilter(input.input, conjoin(below)!)) };
      return above.length ? makeFilter(pushed, conjoin(above)!) : pushed;
    }
    // Filter over Window: conjuncts on columns every call partitions by go below it (they drop whole partitions)
    case 'window': {
      const keysOf = (c: (typeof input.calls)[number]) =>
        c.partitionBy.flatMap((e) => (e.kind === 'column' ? [key(e.qualifier, e.name)] : []));
      const shared = new Set(keysOf(input.calls[0]!).filter((k) => input.calls.every((c) => keysOf(c).includes(k))));
      const below: Expr[] = [];
      const above: Expr[] = [];
      for (const c of splitConjuncts(p.predicate))
        (columnsOf(c).every((x) => shared.has(key(x.qualifier, x.name))) ? below : above).push(c);
      if (below.length === 0) return p;
      const pushed = { ...input, input: push(makeFilter(input.input, conjoin(below)!)) };
      return above.length ? makeFilter(pushed, conjoin(above)!) : pushed;
    }
    default:
      return p;
  }
}

function key(q: string | null, n: string): string {
  return `${q ?? ''}\u0000${n}`;
}

/** The predicate over the Project's input, when every column it reads is a projected expression. */
function substitute(pred: Expr, project: LogicalPlan & { kind: 'project' }): Expr | null {
  const fields = project.schema.fields;
  let ok = true;
  const out = transformExpr(pred, (e) => {
    if (e.kind !== 'column') return e;
    const at = fields.findIndex((f) => f.name === e.name && (e.qualifier === null || f.qualifier === e.qualifier));
    if (at < 0) {
      ok = false;
      return e;
    }
    return project.exprs[at]!;
  });
  return ok ? out : null;
}

function substituteGroups(pred: Expr, agg: LogicalPlan & { kind: 'aggregate' }): Expr | null {
  const fields = agg.schema.fields;
  return transformExpr(pred, (e) => {
    if (e.kind !== 'column') return e;
    const at = fields.findIndex((f) => f.name === e.name && f.qualifier === e.qualifier);
    return at >= 0 && at < agg.groupBy.length ? agg.groupBy[at]! : e;
  });
}
