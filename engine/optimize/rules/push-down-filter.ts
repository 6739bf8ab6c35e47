// push-down-filter: moves filter conjuncts toward the scan and hands them to it for row-group pruning.
import { exprText } from '../../plan/expr/display.js';
import { columnsOf, conjoin, type Expr, sideOfExpr, splitConjuncts, transformExpr } from '../../plan/expr/index.js';
import { type Join, type LogicalPlan, makeFilter, transformPlan, withInputs } from '../../plan/logical/index.js';
import { fieldIndex, type Schema } from '../../plan/types.js';
import type { OptimizerRule } from '../rule.js';

export const pushDownFilter: OptimizerRule = {
  name: 'push-down-filter',
  apply: (plan) => transformPlan(plan, (p) => (p.kind === 'join' ? pushJoinConditions(p) : push(p))),
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
    // Filter over Join: conjuncts on one side go below it where that keeps the join's meaning; inner joins
    // absorb conjuncts over both sides as join conditions (a cross join with a WHERE equality becomes a join).
    case 'join': {
      const { joinType } = input;
      const toLeft: Expr[] = [];
      const toRight: Expr[] = [];
      const toOn: Expr[] = [];
      const above: Expr[] = [];
      for (const c of splitConjuncts(p.predicate)) {
        const side = sideOf(c, input);
        if (side === 'left' && joinType !== 'right' && joinType !== 'full') toLeft.push(c);
        else if (side === 'right' && (joinType === 'inner' || joinType === 'right')) toRight.push(c);
        else if (side === 'both' && joinType === 'inner') toOn.push(c);
        else above.push(c);
      }
      if (toLeft.length + toRight.length + toOn.length === 0) return p;
      const on = conjoin([...(input.on ? [input.on] : []), ...toOn]);
      const joined = pushJoinConditions({
        ...input,
        on,
        left: filtered(input.left, toLeft),
        right: filtered(input.right, toRight),
      });
      return above.length ? makeFilter(joined, conjoin(above)!) : joined;
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

/** Moves a join's own conditions that read one side only into that side, where the join type allows it. */
export function pushJoinConditions(j: Join): LogicalPlan {
  if (j.on === null) return withInputs(j, [j.left, j.right]);
  const toLeft: Expr[] = [];
  const toRight: Expr[] = [];
  const keep: Expr[] = [];
  const conjuncts = splitConjuncts(j.on);
  conjuncts.forEach((c, i) => {
    const side = sideOf(c, j);
    // The IN equality of a null-aware join stays first in place: the operator reads it as such.
    if (j.nullAware && i === 0) keep.push(c);
    else if (side === 'left' && (j.joinType === 'inner' || j.joinType === 'semi' || j.joinType === 'right'))
      toLeft.push(c);
    else if (side === 'right' && j.joinType !== 'right' && j.joinType !== 'full') toRight.push(c);
    else keep.push(c);
  });
  if (j.joinType === 'inner') {
    for (const c of keep) {
      const left = impliedOn(c, j, 'left');
      const right = impliedOn(c, j, 'right');
      if (left) toLeft.push(left);
      if (right) toRight.push(right);
    }
  }
  if (toLeft.length + toRight.length === 0) return withInputs(j, [j.left, j.right]);
  return withInputs({ ...j, on: conjoin(keep) }, [filtered(j.left, toLeft), filtered(j.right, toRight)]);
}

/**
 * (a1 AND b1) OR (a2 AND b2) over both sides implies (a1 OR a2) on side a: that weaker filter can run below the
 * join (TPC-H Q19), while the join keeps the whole condition.
 */
function impliedOn(c: Expr, j: Join, side: 'left' | 'right'): Expr | null {
  if (!(c.kind === 'binary' && c.op === 'or')) return null;
  const branches = splitDisjuncts(c).map((b) => conjoin(splitConjuncts(b).filter((x) => sideOf(x, j) === side)));
  if (branches.some((b) => b === null)) return null;
  return branches.reduce((a, b) => ({ kind: 'binary', op: 'or', left: a!, right: b!, type: c.type }))!;
}

function splitDisjuncts(e: Expr): Expr[] {
  if (e.kind === 'binary' && e.op === 'or') return [...splitDisjuncts(e.left), ...splitDisjuncts(e.right)];
  return [e];
}

function filtered(p: LogicalPlan, conjuncts: readonly Expr[]): LogicalPlan {
  // A conjunct already filtering this input (pushed by an earlier visit of the same join) is not added twice.
  const present = new Set(p.kind === 'filter' ? splitConjuncts(p.predicate).map(exprText) : []);
  const fresh = conjuncts.filter((c) => !present.has(exprText(c)));
  return fresh.length === 0 ? p : push(makeFilter(p, conjoin(fresh)!));
}

/** Which join input an expression reads: one side, both, or neither (a constant). */
export function sideOf(e: Expr, j: Join): 'left' | 'right' | 'both' | 'none' {
  return sideOfExpr(e, j.left.schema.fields, j.right.schema.fields);
}

/** The predicate with each column of `from` replaced by the column at the same position of `to`. */
function byPosition(pred: Expr, from: Schema, to: Schema): Expr {
  return transformExpr(pred, (e) => {
    if (e.kind !== 'column') return e;
    const at = fieldIndex(from, e.qualifier, e.name);
    const f = to.fields[at]!;
    return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
  });
}

function key(q: string | null, n: string): string {
  return `${q ?? ''}\u0000${n}`;
}

/** The predicate over the Project's input, when every column it reads is a projected expression. */
function substitute(pred: Expr, project: LogicalPlan & { kind: 'project' }): Expr | null {
  let ok = true;
  const out = transformExpr(pred, (e) => {
    if (e.kind !== 'column') return e;
    const at = fieldIndex(project.schema, e.qualifier, e.name);
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
