// fold-constants: evaluates column-free subexpressions once at plan time and simplifies boolean logic.
import { exprText } from '../../plan/expr/display.js';
import {
  conjoin,
  type Expr,
  exprChildren,
  type LiteralExpr,
  splitConjuncts,
  transformExpr,
} from '../../plan/expr/index.js';
import { type LogicalPlan, transformPlan } from '../../plan/logical/index.js';
import { sameType } from '../../plan/types.js';
import { MS_PER_DAY } from '../../plan/values.js';
import { mapPlanExprs } from '../map-exprs.js';
import type { OptimizerContext, OptimizerRule } from '../rule.js';

const MICROS_PER_DAY = MS_PER_DAY * 1000;

export const foldConstants: OptimizerRule = {
  name: 'fold-constants',
  apply(plan, ctx) {
    const folded = transformPlan(plan, (p) => mapPlanExprs(p, (e) => foldExpr(e, ctx)));
    return transformPlan(folded, dropTrueFilter);
  },
};

// Filter(true) -> its input
function dropTrueFilter(p: LogicalPlan): LogicalPlan {
  if (p.kind === 'filter' && p.predicate.kind === 'literal' && p.predicate.value === true) return p.input;
  return p;
}

export function foldExpr(e: Expr, ctx: OptimizerContext): Expr {
  return transformExpr(e, (x) => simplify(evaluateIfConstant(x, ctx)));
}

function evaluateIfConstant(e: Expr, ctx: OptimizerContext): Expr {
  if (e.kind === 'literal' || e.kind === 'column') return e;
  if (!exprChildren(e).every((k) => k.kind === 'literal')) return e;
  try {
    return ctx.evaluateConstant(e);
  } catch {
    // Leave it: the error is raised when (and only if) the row is evaluated, e.g. 1/0 in an untaken CASE arm.
    return e;
  }
}

const isTrue = (e: Expr) => e.kind === 'literal' && e.value === true;
const isFalse = (e: Expr) => e.kind === 'literal' && e.value === false;

function simplify(e: Expr): Expr {
  if (e.kind === 'binary' && e.op === 'and') {
    if (isTrue(e.left)) return e.right; // true AND x -> x
    if (isTrue(e.right)) return e.left; // x AND true -> x
    if (isFalse(e.left) || isFalse(e.right)) return { kind: 'literal', value: false, type: e.type }; // x AND false -> false
  }
  if (e.kind === 'binary' && e.op === 'or') {
    if (isFalse(e.left)) return e.right; // false OR x -> x
    if (isFalse(e.right)) return e.left; // x OR false -> x
    if (isTrue(e.left) || isTrue(e.right)) return { kind: 'literal', value: true, type: e.type }; // x OR true -> true
    return factorOr(e);
  }
  if (e.kind === 'binary' && ['=', '<>', '<', '<=', '>', '>='].includes(e.op)) return unwrapDateCast(e);
  if (e.kind === 'call' && e.name === 'coalesce') return foldCoalesce(e);
  return e;
}

// coalesce(NULL, x, 1, y) -> coalesce(x, 1): NULL arguments go, and nothing after the first constant runs
// (PostgreSQL folds it so: COALESCE(1, 1/0) is 1); coalesce(x) -> x
function foldCoalesce(e: Expr & { kind: 'call' }): Expr {
  const isNull = (a: Expr) => a.kind === 'literal' && a.value === null;
  let args = e.args.filter((a) => !isNull(a));
  const constant = args.findIndex((a) => a.kind === 'literal');
  if (constant >= 0) args = args.slice(0, constant + 1);
  if (args.length === 0) return { kind: 'literal', value: null, type: e.type };
  if (args.length === 1 && sameType(args[0]!.type, e.type)) return args[0]!;
  return args.length === e.args.length ? e : { ...e, args };
}

// (a AND b) OR (a AND c) -> a AND (b OR c): a join condition repeated in every branch (TPC-H Q19) becomes usable
function factorOr(e: Expr & { kind: 'binary' }): Expr {
  const left = splitConjuncts(e.left);
  const right = splitConjuncts(e.right);
  const rightText = new Set(right.map(exprText));
  const common = left.filter((c) => rightText.has(exprText(c)));
  if (common.length === 0) return e;
  const shared = new Set(common.map(exprText));
  const l = conjoin(left.filter((c) => !shared.has(exprText(c))));
  const r = conjoin(right.filter((c) => !shared.has(exprText(c))));
  // (a) OR (a AND c) -> a
  const rest: Expr | null = l === null || r === null ? null : { ...e, left: l, right: r };
  return conjoin(rest ? [...common, rest] : common)!;
}

// CAST(d AS timestamp) op TIMESTAMP 'Y-M-D 00:00:00' -> d op DATE 'Y-M-D' (keeps the date column's kernel and pruning)
function unwrapDateCast(e: Expr & { kind: 'binary' }): Expr {
  const { left, right } = e;
  if (left.kind === 'cast' && left.expr.type.id === 'date' && left.type.id === 'timestamp' && isMidnight(right)) {
    return { ...e, left: left.expr, right: toDate(right as LiteralExpr) };
  }
  if (right.kind === 'cast' && right.expr.type.id === 'date' && right.type.id === 'timestamp' && isMidnight(left)) {
    return { ...e, left: toDate(left as LiteralExpr), right: right.expr };
  }
  return e;
}

function isMidnight(e: Expr): boolean {
  return (
    e.kind === 'literal' && e.type.id === 'timestamp' && typeof e.value === 'number' && e.value % MICROS_PER_DAY === 0
  );
}

function toDate(e: LiteralExpr): LiteralExpr {
  return { kind: 'literal', value: (e.value as number) / MICROS_PER_DAY, type: { id: 'date' } };
}
