// `sqlToPlan`: a parsed statement -> logical plan, binding `$n` / `:name` parameters as literals.
import type { Catalog } from '../catalog.js';
import { NotSupportedError, PlanError } from '../errors.js';
import type { LiteralExpr } from '../plan/expr/index.js';
import type { LogicalPlan } from '../plan/logical/index.js';
import { BOOL, FLOAT64, INT32, INT64, NULL, UTF8 } from '../plan/types.js';
import type { ParamBinder } from './bind/bind-expr.js';
import type { BindContext } from './bind/bind-from.js';
import { bindQuery } from './bind/bind-query.js';
import { bindSet, bindShow } from './bind/bind-set.js';
import { bindWrite } from './bind/bind-write.js';
import type { Ast } from './parse.js';

/** Positional values for `$1…` (array) or named values for `:name` (object); plain JSON scalars. */
export type ParamValues = readonly unknown[] | Readonly<Record<string, unknown>>;

const QUERY_TYPES = new Set(['select', 'set_op', 'values']);

export function sqlToPlan(ast: Ast, ctx: { catalog: Catalog; params: ParamValues | undefined }): LogicalPlan {
  if (ast?.type === 'set') return bindSet(ast);
  if (ast?.type === 'show') return bindShow(ast);
  const bind: BindContext = {
    catalog: ctx.catalog,
    params: paramBinder(ctx.params),
    ctes: new Map(),
    outer: null,
    ids: { next: 1 },
    bindQuery,
  };
  if (ast?.floeWrite === true) return bindWrite(ast, bind);
  if (typeof ast?.type === 'string' && !QUERY_TYPES.has(ast.type))
    throw new NotSupportedError(`${String(ast?.type ?? 'this').toUpperCase()} statements are not supported yet`);
  return bindQuery(ast, bind);
}

function paramBinder(params: ParamValues | undefined): ParamBinder {
  return {
    positional(index) {
      if (!Array.isArray(params)) {
        throw new PlanError(`no value supplied for parameter $${index}: pass "parameters" as a JSON array`);
      }
      if (index < 1 || index > params.length) {
        throw new PlanError(`no value supplied for parameter $${index} (${params.length} given)`);
      }
      return paramLiteral(params[index - 1], `$${index}`);
    },
    named(name) {
      if (params === undefined || Array.isArray(params) || !Object.hasOwn(params, name)) {
        throw new PlanError(`no value supplied for parameter :${name}`);
      }
      return paramLiteral((params as Record<string, unknown>)[name], `:${name}`);
    },
  };
}

/** JSON null/boolean/integer/float/string -> a literal; strings stay untyped so the context decides. */
function paramLiteral(v: unknown, label: string): LiteralExpr {
  if (v === null) return { kind: 'literal', value: null, type: NULL };
  if (typeof v === 'boolean') return { kind: 'literal', value: v, type: BOOL };
  if (typeof v === 'string') return { kind: 'literal', value: v, type: UTF8, untyped: true };
  if (typeof v === 'bigint') return { kind: 'literal', value: v, type: INT64 };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new PlanError(`parameter ${label} is not a finite number`);
    if (Number.isInteger(v)) return { kind: 'literal', value: v, type: Math.abs(v) <= 2147483647 ? INT32 : INT64 };
    return { kind: 'literal', value: v, type: FLOAT64 };
  }
  throw new PlanError(`parameter ${label} must be null, a boolean, a number or a string`);
}
