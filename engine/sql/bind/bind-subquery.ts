// Subqueries used as values: scalar `(SELECT …)`, `[NOT] EXISTS (…)`, `x [NOT] IN (…)`, `x = ANY (…)`, `x <> ALL (…)`.
import { NotSupportedError, PlanError } from '../../errors.js';
import { col, type Expr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeProject } from '../../plan/logical/index.js';
import { BOOL, sameType, typeName } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { bindExpr, type ExprContext } from './bind-expr.js';
import { castTo, commonType, isUntypedString } from './coerce.js';

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
  if (ast.type === 'binary_expr' && ast.right?.type === 'function') {
    const quantifier = functionName(ast.right);
    const sub = subqueryOf(ast.right.args);
    if (sub && (quantifier === 'any' || quantifier === 'some' || quantifier === 'all')) {
      if (op === '=' && quantifier !== 'all') return inSubquery(ast.left, sub, false, ctx);
      if ((op === '<>' || op === '!=') && quantifier === 'all') return inSubquery(ast.left, sub, true, ctx);
      throw new NotSupportedError(
        `${op} ${quantifier.toUpperCase()} (subquery) is not supported yet; = ANY and <> ALL are`,
      );
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
  const left = bindExpr(leftAst, ctx);
  const { plan, id } = bindPlan(ast, ctx);
  if (plan.schema.fields.length !== 1) throw new PlanError('subquery has too many columns');
  const f = plan.schema.fields[0]!;
  const leftType = isUntypedString(left) ? f.type : left.type;
  const t = commonType(leftType, f.type);
  if (t === null)
    throw new PlanError(`operator does not exist: ${typeName(leftType)} = ${typeName(f.type)} (IN subquery)`);
  const casted = sameType(t, f.type)
    ? plan
    : makeProject(plan, [castTo(col(f.qualifier, f.name, f.type), t)], [{ ...f, type: t }]);
  return { kind: 'subquery', subquery: 'in', plan: casted, expr: castTo(left, t), negated, id, type: BOOL };
}
