// push-down-filter: moves filter conjuncts toward the scan and hands them to it for row-group pruning.
import { exprText } from '../../plan/expr/display.js';
import { columnsOf, conjoin, type Expr, splitConjuncts, transformExpr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeFilter, transformPlan } from '../../plan/logical/index.js';
import type { Schema } from '../../plan/types.js';
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
    // Filter over Aggregate: conjuncts on group columns (of every grouping set) only go below it
    case 'aggregate': {
      const sets = input.groupingSets;
      const groupNames = new Set(
        input.schema.fields
          .slice(0, input.groupBy.length)
          .filter((_, i) => !sets || sets.every((s) => s.includes(i)))
          .map((f) => key(f.qualifier, f.name)),
      );
      const below: Expr[] = [];
      const above: Expr[] = [];
      for (const c of splitConjuncts(p.predicate)) {
        // A column-free conjunct stays above: below a global aggregate it would still leave one row.
        const cols = columnsOf(c);
        const onGroups = cols.length > 0 && cols.every((x) => groupNames.has(key(x.qualifier, x.name)));
        const mapped = onGroups ? substituteGroups(c, input) : null;
        (mapped ? below : above).push(mapped ?? c);
      }
      if (below.length === 0) return p;
      const pushed = { ...input, input: push(makeFilter(input.input, conjoin(below)!)) };
      return above.length ? makeFilter(pushed, conjoin(above)!) : pushed;
    }
    // Filter over Union -> Union of Filters, each predicate over its arm's own column names
    case 'union':
      return {
        ...input,
        inputs: input.inputs.map((arm) => push(makeFilter(arm, byPosition(p.predicate, input.schema, arm.schema)))),
      };
    // Filter over INTERSECT/EXCEPT -> the filter on the left input only (result rows are left rows; a row
    // of the right that equals a left row, e.g. -0 and 0, could still fail the predicate)
    case 'set_op':
      return { ...input, left: push(makeFilter(input.left, byPosition(p.predicate, input.schema, input.left.schema))) };
    default:
      return p;
  }
}

/** The predicate with each column of `from` replaced by the column at the same position of `to`. */
function byPosition(pred: Expr, from: Schema, to: Schema): Expr {
  return transformExpr(pred, (e) => {
    if (e.kind !== 'column') return e;
    const at = from.fields.findIndex((f) => f.name === e.name && (e.qualifier === null || f.qualifier === e.qualifier));
    const f = to.fields[at]!;
    return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
  });
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
