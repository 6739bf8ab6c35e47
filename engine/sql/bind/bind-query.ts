// `bindQuery`: any query expression -> logical plan: SELECT, VALUES, and UNION/INTERSECT/EXCEPT [ALL] chains.
import { InternalError, PlanError } from '../../errors.js';
import type { Expr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeLimit, makeSort, type SetOpKind, type SortKey } from '../../plan/logical/index.js';
import { type Field, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import type { SetOpAst, ValuesAst } from '../rewrite/index.js';
import { bindExpr } from './bind-expr.js';
import type { BindContext } from './bind-from.js';
import { bindLimit } from './bind-limit.js';
import { bindSelect, distinctOver } from './bind-select.js';
import { bindValues } from './bind-values.js';
import { bindWith } from './bind-with.js';
import { castArm, outputExprs } from './cast-arm.js';
import { unifyAll } from './coerce.js';
import { Scope } from './scope.js';

const QUERY_TYPES = new Set(['select', 'set_op', 'values']);

/**
 * Binds a query: a SELECT (delegated to `bindSelect`), a VALUES list, or a set operation as parse.ts
 * normalises it (`SetOpAst`). Also accepts the wrappers node-sql-parser puts around a parenthesised query
 * (`{ast: …}` for subquery expressions, `{expr: …}` for FROM items), so every derived table, subquery and
 * CTE body can be handed over as found. `ctx` passes through unchanged to every arm.
 */
export function bindQuery(ast: Ast, ctx: BindContext): LogicalPlan {
  const node = unwrap(ast);
  if (node?.with) return bindWith(node, ctx, bindQuery);
  switch (node?.type) {
    case 'set_op':
      return bindSetOp(node as SetOpAst, ctx);
    case 'values': {
      const v = node as ValuesAst;
      return orderAndLimit(bindValues(v.values, ctx), v, ctx, 'VALUES');
    }
    default:
      // Chains are rebuilt by parse.ts (engine/sql/rewrite); a raw one means a parser path bypassed it.
      if (node?._next) throw new InternalError('a set operation reached the binder without parse.ts normalising it');
      return bindSelect(node, ctx);
  }
}

function unwrap(ast: Ast): Ast {
  let node = ast;
  while (node && !QUERY_TYPES.has(node.type) && (node.ast || node.expr)) node = node.ast ?? node.expr;
  return node;
}

function bindSetOp(node: SetOpAst, ctx: BindContext): LogicalPlan {
  const name = node.op.toUpperCase();
  let plan: LogicalPlan;
  if (node.op === 'union') {
    const arms = unionArms(node, node.all).map((a) => bindQuery(a, ctx));
    const { plans, schema } = unifyArms(arms, name);
    plan = { kind: 'union', inputs: plans, schema };
    if (!node.all) plan = distinctOver(plan);
  } else {
    const { plans, schema } = unifyArms([bindQuery(node.left, ctx), bindQuery(node.right, ctx)], name);
    plan = { kind: 'set_op', op: node.op as SetOpKind, all: node.all, left: plans[0]!, right: plans[1]!, schema };
  }
  return orderAndLimit(plan, node, ctx, 'UNION/INTERSECT/EXCEPT');
}

/**
 * The arms of a UNION, flattening nested UNIONs that do not change the result:
 * (a UNION ALL b) UNION ALL c -> Union[a, b, c]; (a UNION b) UNION c and (a UNION ALL b) UNION c -> distinct(Union[a, b, c]).
 */
function unionArms(node: Ast, all: boolean): Ast[] {
  const flat = (x: Ast) =>
    x.type === 'set_op' && x.op === 'union' && (x.all || !all) && !x.orderby && !x.limit && !x.with;
  return [node.left, node.right].flatMap((x) => (flat(x) ? unionArms(x, all) : [x]));
}

/** Checks arity, finds each column's common type (PostgreSQL's UNION rules) and casts the arms to it. */
function unifyArms(arms: readonly LogicalPlan[], op: string): { plans: LogicalPlan[]; schema: { fields: Field[] } } {
  const width = arms[0]!.schema.fields.length;
  if (arms.some((a) => a.schema.fields.length !== width)) {
    throw new PlanError(`each ${op} query must have the same number of columns`);
  }
  const outputs = arms.map(outputExprs);
  const types = arms[0]!.schema.fields.map((_, c) => {
    const t = unifyAll(
      outputs.map((o) => o[c]!),
      op,
    ).type;
    // All arms NULL: PostgreSQL resolves the column as text.
    return t.id === 'null' ? UTF8 : t;
  });
  const fields = arms[0]!.schema.fields.map(
    (f, c): Field => ({
      name: f.name,
      qualifier: null,
      type: types[c]!,
      nullable: arms.some((a) => a.schema.fields[c]!.nullable),
    }),
  );
  return { plans: arms.map((a) => castArm(a, types)), schema: { fields } };
}

/**
 * ORDER BY and LIMIT/OFFSET written after a set operation or VALUES list: keys name an output column or its
 * position. Over a set operation nothing else may be used (PostgreSQL); over VALUES a key may be an expression.
 */
function orderAndLimit(plan: LogicalPlan, node: SetOpAst | ValuesAst, ctx: BindContext, what: string): LogicalPlan {
  const fields = plan.schema.fields;
  if (node.orderby?.length) {
    const keys = node.orderby.map((o: Ast): SortKey => {
      const ascending = String(o.type ?? 'ASC').toUpperCase() !== 'DESC';
      const nulls = String(o.nulls ?? '').toUpperCase();
      // PostgreSQL: NULLS LAST for ASC, NULLS FIRST for DESC unless stated.
      const nullsFirst = nulls ? nulls.includes('FIRST') : !ascending;
      return { expr: orderKey(o.expr, fields, ctx, what), ascending, nullsFirst };
    });
    plan = makeSort(plan, keys);
  }
  const limit = bindLimit(node.limit, ctx.params);
  return limit ? makeLimit(plan, limit.skip, limit.fetch) : plan;
}

function orderKey(e: Ast, fields: readonly Field[], ctx: BindContext, what: string): Expr {
  const column = (f: Field): Expr => ({ kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type });
  if (e.type === 'number') {
    const at = Number(e.value);
    if (!Number.isInteger(at) || at < 1 || at > fields.length)
      throw new PlanError(`ORDER BY position ${e.value} is not in select list`);
    return column(fields[at - 1]!);
  }
  const scope = new Scope({ fields });
  if (what === 'VALUES') return bindExpr(e, { scope, params: ctx.params, aggregates: 'ORDER BY' });
  if (e.type !== 'column_ref') {
    throw new PlanError(
      `invalid ${what} ORDER BY clause: only result column names or positions can be used, not expressions or functions`,
    );
  }
  return bindExpr(e, { scope, params: ctx.params, aggregates: 'ORDER BY' });
}
