// `bindAggregateCall`: an aggregate call's AST -> a column of the Aggregate node (argument, DISTINCT, FILTER, ORDER BY).
import { NotSupportedError, PlanError } from '../../errors.js';
import { lookupAggregate } from '../../functions/registry.js';
import { exprText } from '../../plan/expr/display.js';
import type { Expr } from '../../plan/expr/index.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import { typeName, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { bindExpr, type ExprContext } from './bind-expr.js';
import { castTo, isUntypedString, requireBool } from './coerce.js';

type OrderBy = NonNullable<AggregateCall['orderBy']>;

/**
 * Binds `{type: 'aggr_func'}` (every aggregate call reaches the binder in that shape, see
 * rewrite/aggregate-call.ts). string_agg's arguments become [value, separator, ...ORDER BY keys].
 */
export function bindAggregateCall(ast: Ast, ctx: ExprContext): Expr {
  const written = String(ast.name).toLowerCase();
  if (typeof ctx.aggregates === 'string')
    throw new PlanError(`aggregate functions are not allowed in ${ctx.aggregates}`);
  const fn = lookupAggregate(written);
  if (!fn) throw new NotSupportedError(`aggregate function ${written} is not supported yet`);
  if (ast.over) throw new NotSupportedError('window functions are not supported yet');
  const arg = ast.args?.expr;
  const star =
    arg?.type === 'star' || (arg?.type === 'column_ref' && (arg.column === '*' || arg.column?.expr?.value === '*'));
  if (star && fn !== 'count') throw new PlanError(`${written}(*) does not exist`);
  const inner: ExprContext = {
    ...ctx,
    aggregates: 'arguments of an aggregate function',
    windows: 'aggregate function calls cannot contain window function calls',
  };
  const args = star || arg === undefined ? [] : [bindExpr(arg, inner)];
  if (!star && args.length === 0) throw new PlanError(`${written}() needs an argument`);
  if (fn !== 'count' && args[0]?.type.id === 'interval')
    throw new NotSupportedError(`${written}(interval) is not supported yet`);
  const filter = ast.filter?.where ? requireBool(bindExpr(ast.filter.where, inner), 'FILTER') : null;
  const distinct = Boolean(ast.args?.distinct);
  if (fn === 'bool_and' || fn === 'bool_or') args[0] = requireBool(args[0]!, written);
  if (fn !== 'string_agg') {
    // ORDER BY cannot change what these aggregates return: its keys are checked, then dropped.
    checkDistinctOrder(distinct, args[0], bindOrder(ast, inner));
    return ctx.aggregates.add(fn, args, distinct, star, filter);
  }
  const { keys, orderBy } = stringAggArgs(ast, args, inner, distinct);
  return ctx.aggregates.add(fn, keys, distinct, star, filter, orderBy);
}

/** string_agg(text, text [ORDER BY …]): value and separator as text, then the sort keys. */
function stringAggArgs(ast: Ast, args: Expr[], ctx: ExprContext, distinct: boolean) {
  const sepAst = ast.args?.separator?.delimiter;
  const sep = sepAst ? bindExpr(sepAst, ctx) : null;
  const shown = [args[0]!, ...(sep ? [sep] : [])].map((a) => (isUntypedString(a) ? 'unknown' : typeName(a.type)));
  if (!sep || ![args[0]!, sep].every((a) => isUntypedString(a) || ['utf8', 'null'].includes(a.type.id)))
    throw new PlanError(`function string_agg(${shown.join(', ')}) does not exist`);
  const value = castTo(args[0]!, UTF8);
  const order = bindOrder(ast, ctx);
  checkDistinctOrder(distinct, value, order);
  const orderBy: OrderBy = order.map(({ ascending, nullsFirst }) => ({ ascending, nullsFirst }));
  return { keys: [value, castTo(sep, UTF8), ...order.map((k) => k.expr)], orderBy };
}

/** The call's `ORDER BY` keys, NULLS LAST for ASC and NULLS FIRST for DESC unless stated (PostgreSQL). */
function bindOrder(ast: Ast, ctx: ExprContext): { expr: Expr; ascending: boolean; nullsFirst: boolean }[] {
  return (ast.args?.orderby ?? []).map((o: Ast) => {
    const ascending = String(o.type ?? 'ASC').toUpperCase() !== 'DESC';
    const nulls = o.nulls ? /first/i.test(String(o.nulls)) : !ascending;
    return { expr: bindExpr(o.expr, ctx), ascending, nullsFirst: nulls };
  });
}

function checkDistinctOrder(distinct: boolean, value: Expr | undefined, order: readonly { expr: Expr }[]): void {
  if (distinct && order.some((k) => value === undefined || exprText(k.expr) !== exprText(value)))
    throw new PlanError('in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
}
