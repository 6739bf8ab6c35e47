// `bindValues`: a VALUES list -> a Values node whose columns (column1, column2, …) take each column's common type.
import { PlanError } from '../../errors.js';
import type { Expr } from '../../plan/expr/index.js';
import type { Values } from '../../plan/logical/index.js';
import type { Field } from '../../plan/types.js';
import { UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { bindExpr } from './bind-expr.js';
import type { BindContext } from './bind-from.js';
import { castTo, unifyAll } from './coerce.js';
import { Scope } from './scope.js';

/**
 * Binds `VALUES (…), (…)` (rows as node-sql-parser's `expr_list`s). Every row must have the same length;
 * each column unifies across rows as PostgreSQL does (`VALUES (1), (2.5)` is numeric; all-NULL is text).
 */
export function bindValues(rows: readonly Ast[], ctx: BindContext): Values {
  const bound = bindValueRows(rows, ctx);
  const width = bound[0]!.length;
  const columns = Array.from({ length: width }, (_, c) => {
    const { type } = unifyAll(
      bound.map((r: Expr[]) => r[c]!),
      'VALUES',
    );
    return type.id === 'null' ? UTF8 : type;
  });
  const out = bound.map((r: Expr[]) => r.map((e, c) => resolved(castTo(e, columns[c]!))));
  const fields = columns.map(
    (type, c): Field => ({
      name: `column${c + 1}`,
      qualifier: null,
      type,
      nullable: out.some((r) => !(r[c]!.kind === 'literal' && r[c]!.value !== null)),
    }),
  );
  return { kind: 'values', rows: out, schema: { fields } };
}

/** The rows' expressions, untyped literals left as such (INSERT casts them to each column's type). */
export function bindValueRows(rows: readonly Ast[], ctx: BindContext): Expr[][] {
  const exprCtx = { scope: new Scope({ fields: [] }, ctx.outer), params: ctx.params, aggregates: 'VALUES' };
  const bound = rows.map((r) => (r.type === 'expr_list' ? (r.value ?? []) : [r]).map((v: Ast) => bindExpr(v, exprCtx)));
  const width = bound[0]?.length ?? 0;
  if (width === 0) throw new PlanError('VALUES lists must have at least one column');
  if (bound.some((r: Expr[]) => r.length !== width)) throw new PlanError('VALUES lists must all be the same length');
  return bound;
}

/** A quoted string keeps its text but is no longer untyped once the column's type is decided. */
function resolved(e: Expr): Expr {
  return e.kind === 'literal' && e.untyped ? { kind: 'literal', value: e.value, type: e.type } : e;
}
