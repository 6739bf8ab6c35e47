// Subqueries used as values: scalar `(SELECT …)`, `[NOT] EXISTS (…)`, `x [NOT] IN (…)`, `x op ANY|SOME|ALL (…)`.
import { NotSupportedError, PlanError } from '../../errors.js';
import { type ComparisonOp, col, type Expr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeProject } from '../../plan/logical/index.js';
import { BOOL, sameType, typeName } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { bindExpr, type ExprContext } from './bind-expr.js';
import { castTo, commonType, isUntypedString } from './coerce.js';
import { SQL_COMPARISONS } from './sql-comparisons.js';

/** The subquery expression `ast` denotes, or `null` when it is not one. */
export function bindSubqueryExpr(ast: Ast, ctx: ExprContext): Expr | null {
  if (ast === null || typeof ast !== 'object') return null;
  if (ast.ast && !ast.type) return scalar(ast.ast, ctx);
  const op = String(ast.operator ?? '').toUpperCase();
  if (ast.type === 'unary_expr' && (op === 'EXISTS' || op === 'NOT EXISTS') && ast.expr?.ast)
    return exists(ast.expr.ast, op === 'NOT EXISTS', ctx);
  if (ast.type === 'function' && functionName(ast) === 'exists' && ast.args?.value?.[0]?.ast)
    return exists(ast.args.value[0].ast, false, ctx);
  if (ast.type === 'binary_expr' && (op === 'IN' || op === 'NOT IN') && subqueryOf(ast.right))
    return inSubquery(ast.left, subqueryOf(ast.right), op === 'NOT IN', ctx);
  const valuesRows =
    ast.type === 'binary_expr' ? valuesOf(ast.right?.type === 'function' ? ast.right.args : ast.right) : null;
  if (valuesRows && (op === 'IN' || op === 'NOT IN'))
    return bindExpr({ ...ast, right: { type: 'expr_list', value: valuesRows } }, ctx);
  if (ast.type === 'binary_expr' && ast.right?.type === 'function') {
    const quantifier = functionName(ast.right);
    const sub = subqueryOf(ast.right.args);
    const isQuantifier = quantifier === 'any' || quantifier === 'some' || quantifier === 'all';
    const array = isQuantifier ? (arrayOf(ast.right.args) ?? valuesRows) : null;
    if (array) return bindExpr(quantifiedArray(ast.left, op, quantifier === 'all', array), ctx);
    if (sub && isQuantifier) {
      const cmp = SQL_COMPARISONS[op];
      if (!cmp) throw new NotSupportedError(`${op} ${quantifier.toUpperCase()} (subquery) is not supported yet`);
      if (cmp === '=' && quantifier !== 'all') return inSubquery(ast.left, sub, false, ctx);
      if (cmp === '<>' && quantifier === 'all') return inSubquery(ast.left, sub, true, ctx);
      return quantified(ast.left, sub, cmp, quantifier === 'all' ? 'all' : 'any', ctx);
    }
  }
  return null;
}

function functionName(ast: Ast): string {
  const parts = ast.name?.name ?? [];
  return parts
    .map((p: Ast) => p.value)
    .join('.')
    .toLowerCase();
}

function subqueryOf(list: Ast): Ast | null {
  if (list?.type !== 'expr_list' || list.value?.length !== 1) return null;
  return list.value[0].ast ?? null;
}

function arrayOf(list: Ast): Ast[] | null {
  if (list?.type !== 'expr_list' || list.value?.length !== 1) return null;
  const a = list.value[0];
  return a?.type === 'array' && a.expr_list?.type === 'expr_list' ? a.expr_list.value : null;
}

/**
 * `(VALUES (a), (b))` as the parser reads it inside IN / ANY / ALL (a call of VALUES, then the other rows):
 * its one column's values, or null. IN (VALUES …) is IN (a, b); op ANY|ALL (VALUES …) is as over an ARRAY.
 */
function valuesOf(list: Ast): Ast[] | null {
  const first = list?.type === 'expr_list' ? list.value?.[0] : null;
  if (first?.type !== 'function' || functionName(first) !== 'values') return null;
  const row = first.args?.value ?? [];
  if (row.length !== 1)
    throw new NotSupportedError('VALUES of more than one column in IN / ANY / ALL is not supported yet');
  return [row[0], ...list.value.slice(1)];
}

/** `x op ANY (ARRAY[a, b])` -> `x op a OR x op b`; ALL joins them with AND (SQL's three-valued logic either way). */
function quantifiedArray(left: Ast, op: string, all: boolean, items: Ast[]): Ast {
  if (items.length === 0)
    throw new NotSupportedError(`${op} ${all ? 'ALL' : 'ANY'} (an empty ARRAY) is not supported yet`);
  const terms = items.map((right) => ({ type: 'binary_expr', operator: op, left, right }));
  const joiner = all ? 'AND' : 'OR';
  return terms.reduce((a, b) => ({ type: 'binary_expr', operator: joiner, left: a, right: b, parentheses: true }));
}

function bindPlan(ast: Ast, ctx: ExprContext): { plan: LogicalPlan; id: number } {
  if (!ctx.query || !ctx.ids) throw new NotSupportedError('subqueries are not supported here');
  const plan = ctx.query(ast);
  return { plan, id: ctx.ids.next++ };
}

function scalar(ast: Ast, ctx: ExprContext): Expr {
  const { plan, id } = bindPlan(ast, ctx);
  if (plan.schema.fields.length !== 1) throw new PlanError('subquery must return only one column');
  const type = plan.schema.fields[0]!.type;
  return { kind: 'subquery', subquery: 'scalar', plan, expr: null, negated: false, id, type };
}

function exists(ast: Ast, negated: boolean, ctx: ExprContext): Expr {
  const { plan, id } = bindPlan(ast, ctx);
  return { kind: 'subquery', subquery: 'exists', plan, expr: null, negated, id, type: BOOL };
}

function inSubquery(leftAst: Ast, ast: Ast, negated: boolean, ctx: ExprContext): Expr {
  const { left, plan, id } = comparedSides(leftAst, ast, '=', ctx);
  return { kind: 'subquery', subquery: 'in', plan, expr: left, negated, id, type: BOOL };
}

/** `x op ANY (q)` / `x op ALL (q)` for the comparisons IN and NOT IN do not cover. */
function quantified(leftAst: Ast, ast: Ast, op: ComparisonOp, subquery: 'any' | 'all', ctx: ExprContext): Expr {
  const { left, plan, id } = comparedSides(leftAst, ast, op, ctx);
  return { kind: 'subquery', subquery, op, plan, expr: left, negated: false, id, type: BOOL };
}

/** The left operand and the subquery's one column, both cast to their common type. */
function comparedSides(leftAst: Ast, ast: Ast, op: string, ctx: ExprContext) {
  const left = bindExpr(leftAst, ctx);
  const { plan, id } = bindPlan(ast, ctx);
  if (plan.schema.fields.length !== 1) throw new PlanError('subquery has too many columns');
  const f = plan.schema.fields[0]!;
  const leftType = isUntypedString(left) ? f.type : left.type;
  const t = commonType(leftType, f.type);
  if (t === null)
    throw new PlanError(`operator does not exist: ${typeName(leftType)} ${op} ${typeName(f.type)} (subquery)`);
  const casted = sameType(t, f.type)
    ? plan
    : makeProject(plan, [castTo(col(f.qualifier, f.name, f.type), t)], [{ ...f, type: t }]);
  return { left: castTo(left, t), plan: casted, id };
}
