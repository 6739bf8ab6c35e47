// decorrelate-subqueries: every subquery expression becomes a join, so no subquery is ever re-run per row.
//   WHERE [NOT] EXISTS (q)     -> semi (anti) join with q's correlated conditions as the join condition
//   WHERE x [NOT] IN (q)       -> semi (null-aware anti) join on x = q's column
//   (SELECT agg … WHERE k = o) -> left join with q grouped by k (one row per key; COUNT's 0 kept)
//   other IN/EXISTS positions  -> mark join: a boolean column per left row
//   x op ANY|ALL (q)           -> left join with q's MIN/MAX/COUNTs (quantified-subquery.ts)
//   L JOIN LATERAL (q)         -> a join on q's pulled-up conditions (decorrelate-lateral.ts)
// Correlated conditions are pulled up out of q (through filters, projections, aggregates and inner joins).
import { NotSupportedError } from '../../errors.js';
import {
  col,
  conjoin,
  type Expr,
  lit,
  type SubqueryExpr,
  someExpr,
  splitConjuncts,
  transformExpr,
} from '../../plan/expr/index.js';
import {
  type Join,
  type LogicalPlan,
  makeFilter,
  makeJoin,
  makeProject,
  planChildren,
  projectToSchema,
  transformPlan,
  withInputs,
} from '../../plan/logical/index.js';
import { BOOL, type Field } from '../../plan/types.js';
import { mapPlanExprs } from '../map-exprs.js';
import type { OptimizerContext, OptimizerRule } from '../rule.js';
import { decorrelateLateral } from './decorrelate-lateral.js';
import { pullUpCorrelated } from './pull-up-correlated.js';
import { inValue, quantifiedAsAggregate, quantifiedValue } from './quantified-subquery.js';
import { findOuter, requalifyPlan } from './requalify-plan.js';
import { isScalarAggregate, valueOverNoRows } from './value-over-no-rows.js';

export const decorrelateSubqueries: OptimizerRule = {
  name: 'decorrelate-subqueries',
  apply: (plan, ctx) => unnest(plan, ctx),
};

function unnest(plan: LogicalPlan, ctx: OptimizerContext): LogicalPlan {
  return transformPlan(plan, (p) => {
    if (p.kind === 'filter' && hasSubquery(p.predicate))
      return projectToSchema(rewriteFilter(p.input, p.predicate, ctx), p.schema);
    if (p.kind === 'join' && p.lateral) return unnest(decorrelateLateral(p, ctx), ctx);
    if (p.kind === 'join' && p.on !== null && hasSubquery(p.on)) return rewriteJoin(p, ctx);
    if (p.kind === 'project' && p.exprs.some(hasSubquery)) {
      const { input, exprs } = replaceSubqueries(p.input, p.exprs, ctx);
      return { ...p, input, exprs };
    }
    if (p.kind === 'aggregate' || p.kind === 'window' || p.kind === 'sort') return rewriteExprs(p, ctx);
    return p;
  });
}

const hasSubquery = (e: Expr) => someExpr(e, (x) => x.kind === 'subquery');

/** A filter's subquery conjuncts become semi/anti joins under it; other subqueries become joins too. */
function rewriteFilter(input: LogicalPlan, predicate: Expr, ctx: OptimizerContext): LogicalPlan {
  const rest: Expr[] = [];
  let plan = input;
  for (const c of splitConjuncts(oneRowSubqueries(predicate))) {
    const sub = topLevelSubquery(c);
    if (sub) plan = semiOrAnti(plan, sub, ctx);
    else rest.push(c);
  }
  if (rest.length === 0) return plan;
  const replaced = replaceSubqueries(plan, rest, ctx);
  return makeFilter(replaced.input, conjoin(replaced.exprs)!);
}

/** Subqueries in an aggregate's arguments, FILTER or keys (or a window's, a sort's) become joins under it. */
function rewriteExprs(p: LogicalPlan & { input: LogicalPlan }, ctx: OptimizerContext): LogicalPlan {
  const exprs: Expr[] = [];
  mapPlanExprs(p, (e) => {
    exprs.push(e);
    return e;
  });
  if (!exprs.some(hasSubquery)) return p;
  const replaced = replaceSubqueries(p.input, exprs, ctx);
  let at = 0;
  const mapped = mapPlanExprs(p, () => replaced.exprs[at++]!);
  return projectToSchema(withInputs(mapped, [replaced.input]), p.schema);
}

/**
 * Subqueries in a join's ON: an inner join filters its cross product (then as in WHERE; pushing filters down makes
 * the join again). An outer join computes each subquery beside the one side it reads, row for row, and compares
 * in ON: a subquery reading both sides of an outer join is not supported.
 */
function rewriteJoin(p: Join, ctx: OptimizerContext): LogicalPlan {
  if (p.joinType === 'inner')
    return projectToSchema(rewriteFilter(makeJoin('inner', p.left, p.right, null), p.on!, ctx), p.schema);
  let { left, right } = p;
  const conds = splitConjuncts(p.on!).map((c) => {
    if (!hasSubquery(c)) return c;
    const side = sideOfSubqueries(c, left, right);
    if (side === 'both')
      throw new NotSupportedError(
        `a subquery reading both sides in the ON condition of a ${p.joinType.toUpperCase()} JOIN is not supported yet`,
      );
    const replaced = replaceSubqueries(side === 'left' ? left : right, [c], ctx);
    if (side === 'left') left = replaced.input;
    else right = replaced.input;
    return replaced.exprs[0]!;
  });
  return projectToSchema(makeJoin(p.joinType, left, right, conjoin(conds), p), p.schema);
}

/** Which side of a join `c` reads, counting the outer references inside its subqueries (none: the right). */
function sideOfSubqueries(c: Expr, left: LogicalPlan, right: LogicalPlan): 'left' | 'right' | 'both' {
  const reads: { qualifier: string | null; name: string }[] = [];
  const visitExpr = (e: Expr) =>
    someExpr(e, (x) => {
      if (x.kind === 'column' || x.kind === 'outer_column') reads.push(x);
      if (x.kind === 'subquery') visitPlan(x.plan);
      return false;
    });
  const visitPlan = (q: LogicalPlan) => {
    mapPlanExprs(q, (e) => {
      someExpr(e, (x) => {
        if (x.kind === 'outer_column') reads.push(x);
        if (x.kind === 'subquery') visitPlan(x.plan);
        return false;
      });
      return e;
    });
    for (const k of planChildren(q)) visitPlan(k);
  };
  visitExpr(c);
  const has = (q: LogicalPlan, r: (typeof reads)[number]) =>
    q.schema.fields.some((f) => f.name === r.name && (r.qualifier === null || f.qualifier === r.qualifier));
  const inLeft = reads.some((r) => has(left, r));
  const inRight = reads.some((r) => has(right, r));
  const elsewhere = reads.some((r) => !has(left, r) && !has(right, r));
  if ((inLeft && inRight) || elsewhere) return 'both';
  return inLeft ? 'left' : 'right';
}

/**
 * Subqueries over an aggregate without GROUP BY return exactly one row (COUNT 0 where none correlate), so:
 *   EXISTS (q) -> true      x IN (q) -> x = (q)      x op ANY|ALL (q) -> x op (q)      (negated: NOT …)
 * The scalar subquery's join keeps the value over no rows; a semi join would lose those outer rows.
 */
function oneRowSubqueries(e: Expr): Expr {
  return transformExpr(e, (x) => {
    if (x.kind !== 'subquery' || x.subquery === 'scalar' || !isScalarAggregate(x.plan)) return x;
    let value: Expr = lit(true, BOOL);
    if (x.subquery !== 'exists') {
      const type = x.plan.schema.fields[0]!.type;
      const scalar: Expr = { ...x, subquery: 'scalar', expr: null, op: undefined, negated: false, type };
      const op = x.subquery === 'in' ? '=' : x.op!;
      value = { kind: 'binary', op, left: x.expr!, right: scalar, type: BOOL };
    }
    return x.negated ? { kind: 'unary', op: 'not', expr: value, type: BOOL } : value;
  });
}

/** `EXISTS (q)`, `x IN (q)` and their negations standing alone as a conjunct. */
function topLevelSubquery(c: Expr): SubqueryExpr | null {
  const joins = (e: Expr) => e.kind === 'subquery' && (e.subquery === 'exists' || e.subquery === 'in');
  if (c.kind === 'subquery' && joins(c)) return c;
  if (c.kind === 'unary' && c.op === 'not' && c.expr.kind === 'subquery' && joins(c.expr))
    return { ...c.expr, negated: !c.expr.negated };
  return null;
}

function semiOrAnti(input: LogicalPlan, sub: SubqueryExpr, ctx: OptimizerContext): LogicalPlan {
  const right = correlatedSide(sub, input, ctx);
  const { key, preds } = right;
  if (sub.subquery === 'exists') return makeJoin(sub.negated ? 'anti' : 'semi', input, right.plan, conjoin(preds));
  const on = conjoin([key!, ...preds]);
  if (!sub.negated) return makeJoin('semi', input, right.plan, on);
  const nullAware = nullAwareNeeded(input, right);
  if (nullAware && preds.length > 0) {
    // A correlated NOT IN whose NULLs matter: as a value (replaceSubqueries), kept where true.
    const replaced = replaceSubqueries(input, [sub], ctx);
    return makeFilter(replaced.input, replaced.exprs[0]!);
  }
  return makeJoin('anti', input, right.plan, on, { nullAware });
}

/** Replaces each subquery inside `exprs` by a column of a join added under them. */
function replaceSubqueries(
  input: LogicalPlan,
  exprs: readonly Expr[],
  ctx: OptimizerContext,
): { input: LogicalPlan; exprs: Expr[] } {
  let plan = input;
  // A subquery the binder copied (BETWEEN's operand, a simple CASE's) is one value per row: joined once.
  const done = new Map<number, Expr>();
  const out = exprs.map((e) =>
    transformExpr(oneRowSubqueries(e), (x) => {
      if (x.kind !== 'subquery') return x;
      const seen = done.get(x.id);
      if (seen) return seen;
      const value = replaceOne(x);
      done.set(x.id, value);
      return value;
    }),
  );
  return { input: plan, exprs: out };

  function replaceOne(x: SubqueryExpr): Expr {
    if (x.subquery === 'any' || x.subquery === 'all') {
      const right = correlatedSide(quantifiedAsAggregate(x), plan, ctx);
      plan = makeJoin('left', plan, right.plan, conjoin(right.preds), { singleMatch: true });
      return quantifiedValue(x, right.plan.schema.fields);
    }
    const right = correlatedSide(x, plan, ctx);
    const alias = `__sq${x.id}`;
    if (x.subquery === 'scalar') {
      plan = makeJoin('left', plan, right.plan, conjoin(right.preds), { singleMatch: true });
      const value = right.plan.schema.fields[0]!;
      const v = col(value.qualifier, value.name, value.type);
      if (!right.whenEmpty) return v;
      const present = col(alias, PRESENT, BOOL);
      return {
        kind: 'case',
        whens: [{ when: { kind: 'unary', op: 'is_null', expr: present, type: BOOL }, result: right.whenEmpty }],
        otherwise: v,
        type: v.type,
      };
    }
    const mark: Field = { name: '__mark', qualifier: alias, type: BOOL, nullable: true };
    const on = conjoin(x.subquery === 'in' ? [right.key!, ...right.preds] : right.preds);
    const nullAware = x.subquery === 'in' && nullAwareNeeded(plan, right);
    const m = col(alias, '__mark', BOOL);
    if (nullAware && right.preds.length > 0) {
      // Null-aware per outer row: the mark says whether a value equals x; q's counts per key say if NULL.
      plan = makeJoin('mark', plan, right.plan, on, { mark });
      const counts = correlatedSide(quantifiedAsAggregate(x), plan, ctx, `${alias}_counts`);
      plan = makeJoin('left', plan, counts.plan, conjoin(counts.preds), { singleMatch: true });
      return inValue(x, m, counts.plan.schema.fields);
    }
    plan = makeJoin('mark', plan, right.plan, on, { mark, nullAware });
    return x.negated ? { kind: 'unary', op: 'not', expr: m, type: BOOL } : m;
  }
}

const PRESENT = '__present';

interface CorrelatedSide {
  /** The subquery, decorrelated and requalified as `__sq<id>`. */
  readonly plan: LogicalPlan;
  /** Pulled-up conditions, over the outer query's columns and `plan`'s. */
  readonly preds: Expr[];
  /** For IN: `x = <the subquery's column>`. */
  readonly key: Expr | null;
  /** For a correlated scalar aggregate whose value over no rows is not NULL (COUNT): that value. */
  readonly whenEmpty: Expr | null;
}

function correlatedSide(
  sub: SubqueryExpr,
  outer: LogicalPlan,
  ctx: OptimizerContext,
  alias = `__sq${sub.id}`,
): CorrelatedSide {
  let inner = unnest(sub.plan, ctx);
  // EXISTS ignores the select list (it may even name outer columns) and any LIMIT ≥ 1.
  if (sub.subquery === 'exists') inner = stripForExists(inner);
  const pulled = pullUpCorrelated(inner, { outer, alias: `${alias}_outer` });
  // References to queries further out may stay: that query's decorrelation pulls them up in turn.
  const remaining = findOuter(pulled.plan, outer);
  if (remaining)
    throw new NotSupportedError(`a correlated reference to ${remaining} in this position is not supported yet`);
  const correlated = pulled.preds.length > 0;
  const overNoRows = sub.subquery === 'scalar' && correlated ? valueOverNoRows(inner, ctx) : null;
  // Read in the outer query: its outer references are its own columns there.
  const emptyValue =
    overNoRows && transformExpr(overNoRows, (x) => (x.kind === 'outer_column' ? col(x.qualifier, x.name, x.type) : x));
  let plan = pulled.plan;
  if (emptyValue) {
    const fields = plan.schema.fields;
    plan = makeProject(
      plan,
      [...fields.map((f) => col(f.qualifier, f.name, f.type)), lit(true, BOOL)],
      [...fields, { name: PRESENT, qualifier: null, type: BOOL, nullable: false }],
    );
  }
  const { plan: renamed, rename } = requalifyPlan(plan, alias);
  // Outer references to this query become its columns; ones further up stay outer (the next level pulls them).
  const inOuter = (x: Expr & { kind: 'outer_column' }) =>
    outer.schema.fields.some((f) => f.name === x.name && f.qualifier === x.qualifier);
  const preds = pulled.preds.map((p) =>
    transformExpr(p, (x) =>
      x.kind === 'outer_column' && inOuter(x) ? col(x.qualifier, x.name, x.type) : x.kind === 'column' ? rename(x) : x,
    ),
  );
  const first = renamed.schema.fields[0];
  const key =
    sub.subquery === 'in' && first
      ? ({
          kind: 'binary',
          op: '=',
          left: sub.expr!,
          right: col(first.qualifier, first.name, first.type),
          type: BOOL,
        } as Expr)
      : null;
  return { plan: renamed, preds, key, whenEmpty: emptyValue };
}

function stripForExists(p: LogicalPlan): LogicalPlan {
  if (p.kind === 'project') return stripForExists(p.input);
  if (p.kind === 'sort') return stripForExists(p.input);
  if (p.kind === 'limit' && p.skip === 0 && (p.fetch === null || p.fetch > 0)) return stripForExists(p.input);
  return p;
}

/** NOT IN needs null-aware evaluation unless neither side of the equality can be NULL. */
function nullAwareNeeded(left: LogicalPlan, right: CorrelatedSide): boolean {
  const key = right.key as Expr & { left: Expr; right: Expr };
  const nullable = (e: Expr, p: LogicalPlan) =>
    e.kind !== 'column' ||
    (p.schema.fields.find((f) => f.name === e.name && f.qualifier === e.qualifier)?.nullable ?? true);
  return nullable(key.left, left) || nullable(key.right, right.plan);
}
