// Window binding: collects window function calls (SELECT, ORDER BY), resolves named windows, types each call.
import { NotSupportedError, PlanError } from '../../errors.js';
import { AGGREGATE_NAMES } from '../../functions/registry.js';
import type { ColumnExpr, Expr } from '../../plan/expr/index.js';
import type { AggregateFn, SortKey } from '../../plan/logical/index.js';
import { type WindowCall, type WindowFn, windowCallText } from '../../plan/logical/window.js';
import { FLOAT64, INT32, INT64, isInteger, typeName, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import type { WindowSpecAst } from '../rewrite/window-rewrite.js';
import { aggregateType, displayName } from './bind-aggregate.js';
import { bindExpr, type ExprContext, type WindowSink } from './bind-expr.js';
import { bindWindowFrame } from './bind-window-frame.js';
import { castTo, requireBool, unifyAll } from './coerce.js';

const AGGREGATES = new Set<string>(['count', 'sum', 'avg', 'min', 'max']);
const RANKING = new Set<string>(['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist']);
const VALUE = new Set<string>(['ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value']);

/** A window specification as written: PARTITION BY / ORDER BY ASTs and the frame note of the rewrite. */
interface SpecAst {
  readonly partitionBy: readonly Ast[] | null;
  readonly orderBy: readonly Ast[] | null;
  readonly frame: WindowSpecAst['frame'];
}

/** Collects the distinct window calls of a query; each becomes a column of the Window node. */
export class WindowCollector implements WindowSink {
  calls: WindowCall[] = [];
  readonly #named = new Map<string, SpecAst>();

  /** `windowClause` is the SELECT's `WINDOW name AS (…), …` list (the AST's `window` field). */
  constructor(windowClause: Ast | null) {
    for (const def of windowClause?.expr ?? []) {
      const name = String(def.name).toLowerCase();
      if (this.#named.has(name)) throw new PlanError(`window "${name}" is already defined`);
      this.#named.set(name, this.#resolve(def.as_window_specification?.window_specification));
    }
  }

  get names(): string[] {
    return this.calls.map((c) => c.name);
  }

  add(ast: Ast, ctx: ExprContext): ColumnExpr {
    const fn = windowFunctionName(ast);
    // PostgreSQL 15 has no IGNORE NULLS / RESPECT NULLS (a syntax error there).
    if (ast.consider_nulls)
      throw new NotSupportedError(
        `${String(ast.consider_nulls).toUpperCase()} in window functions is not supported yet`,
      );
    if (ast.args?.distinct) throw new NotSupportedError('DISTINCT is not implemented for window functions');
    if (ast.filter && !AGGREGATES.has(fn))
      throw new NotSupportedError('FILTER is not implemented for non-aggregate window functions');
    const inner: ExprContext = { ...ctx, windows: 'window function calls cannot be nested' };
    const spec = this.#resolve(ast.over?.as_window_specification?.window_specification);
    const partitionBy = (spec.partitionBy ?? []).map((p) => bindExpr(p.type === 'expr' ? p.expr : p, inner));
    const orderBy = (spec.orderBy ?? []).map((o) => bindSortKey(o, inner));
    const frame = bindWindowFrame(spec.frame, orderBy, ctx);
    const bound = bindArgs(fn, ast, inner);
    if (fn !== 'count' && bound.args.some((a) => a.type.id === 'interval'))
      throw new NotSupportedError(`window function ${fn}(interval) is not supported yet`);
    const { type } = bound;
    const args = ast.filter ? filteredArgs(fn, bound.args, ast.filter.where, inner) : bound.args;
    const call: WindowCall = { fn, args, partitionBy, orderBy, frame, type, name: '' };
    const name = windowCallText(call, displayName);
    if (!this.calls.some((c) => c.name === name)) this.calls.push({ ...call, name });
    return { kind: 'column', qualifier: null, name, type };
  }

  /** Rewrites every expression the calls hold (to read an Aggregate's output). */
  mapExprs(f: (e: Expr) => Expr): void {
    this.calls = this.calls.map((c) => ({
      ...c,
      args: c.args.map(f),
      partitionBy: c.partitionBy.map(f),
      orderBy: c.orderBy.map((k) => ({ ...k, expr: f(k.expr) })),
    }));
  }

  /** Merges a specification with the named window it refines, with PostgreSQL's restrictions. */
  #resolve(spec: Ast): SpecAst {
    const note: WindowSpecAst | undefined = spec?.floe;
    const own: SpecAst = {
      partitionBy: note?.partitionBy ?? spec?.partitionby ?? null,
      orderBy: spec?.orderby ?? null,
      frame: note?.frame ?? null,
    };
    if (!note?.base) return own;
    const base = this.#named.get(note.base);
    if (!base) throw new PlanError(`window "${note.base}" does not exist`);
    if (note.bare) return base;
    if (own.partitionBy) throw new PlanError(`cannot override PARTITION BY clause of window "${note.base}"`);
    if (own.orderBy && base.orderBy) throw new PlanError(`cannot override ORDER BY clause of window "${note.base}"`);
    if (base.frame) throw new PlanError(`cannot copy window "${note.base}" because it has a frame clause`);
    return { partitionBy: base.partitionBy, orderBy: own.orderBy ?? base.orderBy, frame: own.frame };
  }
}

/** PostgreSQL names a window call's output column after the function; null when `ast` is no window call. */
export function windowOutputName(ast: Ast): string | null {
  return ast?.over ? windowFunctionName(ast) : null;
}

function windowFunctionName(ast: Ast): WindowFn {
  const raw = ast.type === 'function' ? (ast.name?.name ?? []).map((p: Ast) => p.value).join('.') : ast.name;
  const name = String(raw).toLowerCase();
  if (AGGREGATE_NAMES.has(name) && !AGGREGATES.has(name))
    throw new NotSupportedError(`aggregate function ${name} as a window function is not supported yet`);
  if (!AGGREGATES.has(name) && !RANKING.has(name) && !VALUE.has(name))
    throw new PlanError(`function ${name} is not a window function or an aggregate`);
  return name as WindowFn;
}

function bindSortKey(o: Ast, ctx: ExprContext): SortKey {
  const ascending = String(o.type ?? 'ASC').toUpperCase() !== 'DESC';
  const nulls = String(o.nulls ?? '').toUpperCase();
  // PostgreSQL: NULLS LAST for ASC, NULLS FIRST for DESC unless stated.
  return { expr: bindExpr(o.expr, ctx), ascending, nullsFirst: nulls ? nulls.includes('FIRST') : !ascending };
}

/** The call's bound arguments and result type, checking each function's signature. */
function bindArgs(fn: WindowFn, ast: Ast, ctx: ExprContext): { args: Expr[]; type: WindowCall['type'] } {
  if (AGGREGATES.has(fn)) {
    const arg = ast.args?.expr;
    const star =
      arg?.type === 'star' || (arg?.type === 'column_ref' && (arg.column === '*' || arg.column?.expr?.value === '*'));
    if (star && fn !== 'count') throw new PlanError(`${fn}(*) does not exist`);
    if (!star && arg === undefined) throw new PlanError(`${fn}() needs an argument`);
    const args = star ? [] : [untypedAsText(bindExpr(arg, ctx))];
    return { args, type: aggregateType(fn as AggregateFn, args) };
  }
  const args: Expr[] = (ast.args?.value ?? []).map((a: Ast) => untypedAsText(bindExpr(a, ctx)));
  const wrong = () => new PlanError(`function ${fn}(${args.map((a) => typeName(a.type)).join(', ')}) does not exist`);
  const integer = (e: Expr) => {
    if (!isInteger(e.type) && e.type.id !== 'null') throw wrong();
    return castTo(e, INT32);
  };
  if (RANKING.has(fn)) {
    if (args.length !== 0) throw wrong();
    return { args, type: fn === 'percent_rank' || fn === 'cume_dist' ? FLOAT64 : INT64 };
  }
  if (fn === 'ntile') {
    if (args.length !== 1) throw wrong();
    return { args: [integer(args[0]!)], type: INT32 };
  }
  if (fn === 'lag' || fn === 'lead') {
    if (args.length < 1 || args.length > 3) throw wrong();
    const offset = args[1] ? integer(args[1]) : { kind: 'literal' as const, value: 1, type: INT32 };
    if (args.length < 3) return { args: [args[0]!, offset], type: args[0]!.type };
    const { exprs, type } = unifyAll([args[0]!, args[2]!], fn);
    return { args: [exprs[0]!, offset, exprs[1]!], type };
  }
  if (fn === 'nth_value') {
    if (args.length !== 2) throw wrong();
    return { args: [args[0]!, integer(args[1]!)], type: args[0]!.type };
  }
  if (args.length !== 1) throw wrong();
  return { args, type: args[0]!.type };
}

/**
 * `agg(x) FILTER (WHERE c)` -> `agg(CASE WHEN c THEN x END)` and `count(*) FILTER (WHERE c)` ->
 * `count(CASE WHEN c THEN 1 END)`: the window aggregates skip NULLs, so the rows `c` does not keep add nothing.
 */
function filteredArgs(fn: WindowFn, args: readonly Expr[], where: Ast, ctx: ExprContext): Expr[] {
  const inner: ExprContext = { ...ctx, aggregates: 'FILTER', windows: 'window functions are not allowed in FILTER' };
  const when = requireBool(bindExpr(where, inner), 'FILTER');
  const value: Expr = fn === 'count' && args.length === 0 ? { kind: 'literal', value: 1, type: INT32 } : args[0]!;
  return [{ kind: 'case', whens: [{ when, result: value }], otherwise: null, type: value.type }];
}

function untypedAsText(e: Expr): Expr {
  return e.kind === 'literal' && e.untyped ? { kind: 'literal', value: e.value, type: UTF8 } : e;
}
