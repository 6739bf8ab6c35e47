// `bindExpr` turns a node-sql-parser expression into a typed `Expr`, applying PostgreSQL's implicit casts.
import { NotSupportedError, PlanError } from '../../errors.js';
import { AGGREGATE_NAMES, lookupFunction } from '../../functions/registry.js';
import type { ColumnExpr, Expr, LiteralExpr } from '../../plan/expr/index.js';
import type { AggregateCall, AggregateFn, LogicalPlan } from '../../plan/logical/index.js';
import { BOOL, DATE, type DataType, decimal, NULL, TIMESTAMP, typeName, UTF8 } from '../../plan/types.js';
import { parseDate, parseTimestamp } from '../../plan/values.js';
import type { Ast } from '../parse.js';
import { bindAggregateCall } from './bind-aggregate-call.js';
import { bindLiteral, bindNumber, parseInterval } from './bind-literal.js';
import { bindBinary, bindUnary } from './bind-operators.js';
import { bindSubqueryExpr } from './bind-subquery.js';
import { castTo, parseTypeName, requireBool, unify, unifyAll } from './coerce.js';
import type { Scope } from './scope.js';

/** Receives aggregate calls met while binding (SELECT, HAVING, ORDER BY of an aggregating query). */
export interface AggregateSink {
  add(
    fn: AggregateFn,
    args: Expr[],
    distinct: boolean,
    star: boolean,
    filter: Expr | null,
    orderBy?: AggregateCall['orderBy'],
  ): ColumnExpr;
  /** GROUPING(args) of a grouped query. */
  grouping(args: Expr[]): ColumnExpr;
}

/** Receives window function calls (`… OVER …`) met while binding SELECT and ORDER BY. */
export interface WindowSink {
  add(ast: Ast, ctx: ExprContext): ColumnExpr;
}

export interface ExprContext {
  readonly scope: Scope;
  readonly params: ParamBinder;
  /** `null` where aggregates are not allowed; the string names the clause for the error. */
  readonly aggregates: AggregateSink | string;
  /** Binds a subquery with this scope as its outer scope; absent where subqueries are not allowed. */
  readonly query?: (ast: Ast) => LogicalPlan;
  /** Statement-wide counter numbering subqueries. */
  readonly ids?: { next: number };
  /** Where window calls go; a string is the error for a clause that does not allow them. */
  readonly windows?: WindowSink | string;
}

export interface ParamBinder {
  positional(index: number): LiteralExpr;
  named(name: string): LiteralExpr;
}

export function bindExpr(ast: Ast, ctx: ExprContext): Expr {
  const sub = bindSubqueryExpr(ast, ctx);
  if (sub) return sub;
  if (ast.over) {
    if (typeof ctx.windows === 'object') return ctx.windows.add(ast, ctx);
    throw new PlanError(ctx.windows ?? 'window functions are not allowed here');
  }
  switch (ast.type) {
    case 'column_ref':
      return bindColumn(ast, ctx);
    case 'number':
    case 'bigint':
      return bindNumber(ast.value);
    case 'single_quote_string':
    case 'string':
    case 'natural_string':
    case 'regex_string':
      // The parser keeps SQL's doubled quotes: 'it''s' arrives as it''s.
      return { kind: 'literal', value: String(ast.value).replaceAll("''", "'"), type: UTF8, untyped: true };
    case 'bool':
      return { kind: 'literal', value: Boolean(ast.value), type: BOOL };
    case 'null':
      return { kind: 'literal', value: null, type: NULL };
    case 'date':
    case 'timestamp':
    case 'datetime':
      return typedLiteral(ast.type, String(ast.value));
    case 'interval':
      return { kind: 'literal', value: parseInterval(ast), type: { id: 'interval' } };
    case 'var':
      if (ast.prefix === '$' && typeof ast.name === 'number') return ctx.params.positional(ast.name);
      if (ast.prefix === ':' || ast.prefix === '$') return ctx.params.named(String(ast.name));
      throw new NotSupportedError(`variable ${ast.prefix}${ast.name} is not supported`);
    case 'param':
      return ctx.params.named(String(ast.value));
    case 'unary_expr':
      return bindUnary(ast, ctx);
    case 'binary_expr':
      return bindBinary(ast, ctx);
    case 'cast':
      return bindCast(ast, ctx);
    case 'case':
      return bindCase(ast, ctx);
    case 'function':
      return bindFunction(ast, ctx);
    case 'aggr_func':
      return bindAggregateCall(ast, ctx);
    case 'extract': {
      // EXTRACT(f FROM DATE '…') arrives as the string plus `cast_type`.
      const castType = String(ast.args.cast_type ?? '').toLowerCase();
      const src = bindExpr(castType ? typedLeftmost(castType, ast.args.source) : ast.args.source, ctx);
      return bindCall('extract', [bindLiteral(String(ast.args.field).toLowerCase()), src]);
    }
    case 'expr_list':
      if (ast.value?.length === 1) return bindExpr(ast.value[0], ctx);
      throw new NotSupportedError('row values are not supported');
    default:
      if (ast.ast || ast.type === 'select') throw new NotSupportedError('subqueries are not supported yet');
      if (ast.type === 'window_func' || ast.over) throw new NotSupportedError('window functions are not supported yet');
      throw new NotSupportedError(`expression of type ${ast.type} is not supported yet`);
  }
}

function bindColumn(ast: Ast, ctx: ExprContext): Expr {
  const name = typeof ast.column === 'string' ? ast.column : ast.column?.expr?.value;
  if (name === '*') throw new PlanError('"*" is only allowed in the SELECT list and in count(*)');
  return ctx.scope.resolve(ast.table ?? null, String(name));
}

/** EXTRACT's `cast_type` put back on its literal: the source's leftmost operand (`DATE '…' + 7` arrives as '…' + 7). */
function typedLeftmost(castType: string, source: Ast): Ast {
  if (source?.type === 'binary_expr') return { ...source, left: typedLeftmost(castType, source.left) };
  return castType === 'interval' ? { type: 'interval', expr: source } : { type: castType, value: source?.value };
}

function typedLiteral(kind: string, text: string): LiteralExpr {
  if (kind === 'date') {
    const d = parseDate(text);
    if (d === null) throw new PlanError(`invalid input syntax for type date: "${text}"`);
    return { kind: 'literal', value: d, type: DATE };
  }
  const t = parseTimestamp(text);
  if (t === null) throw new PlanError(`invalid input syntax for type timestamp: "${text}"`);
  return { kind: 'literal', value: t, type: TIMESTAMP };
}

/** `x::a::b` arrives as one cast with targets [a, b], applied left to right. */
function bindCast(ast: Ast, ctx: ExprContext): Expr {
  // The parser reads `$1::int + 1` as a cast carrying the rest of the expression in `tail`.
  if (ast.tail) {
    const tails: Ast[] = Array.isArray(ast.tail) ? ast.tail : [ast.tail];
    const left = tails.reduce(
      (l: Ast, t: Ast) => ({ type: 'binary_expr', operator: t.operator, left: l, right: t.expr }),
      { ...ast, tail: undefined },
    );
    return bindExpr(left, ctx);
  }
  const targets: Ast[] = Array.isArray(ast.target) ? ast.target : [ast.target];
  let e = bindExpr(ast.expr, ctx);
  for (const t of targets) {
    const name = String(t.dataType);
    // float8 arrives as FLOAT with length 8; a bare numeric keeps the scale of its input.
    const length = /^float$/i.test(name) ? null : (t.length ?? null);
    const type =
      /^(numeric|decimal)$/i.test(name) && length === null
        ? unconstrainedNumeric(e)
        : parseTypeName(name, length, t.scale ?? null);
    e = castTo(e, type);
  }
  // `'x'::text` is typed text, no longer a literal the context may read as another type.
  if (e.kind === 'literal' && e.untyped === true) return { kind: 'literal', value: e.value, type: e.type };
  return e;
}

/** The type of a `::numeric` without precision: the input's own decimal type where it has one. */
function unconstrainedNumeric(e: Expr): DataType {
  if (e.type.id === 'decimal') return e.type;
  if (e.type.id === 'int32') return decimal(10, 0);
  if (e.type.id === 'int64') return decimal(18, 0);
  if (e.kind === 'literal' && typeof e.value === 'string') {
    const m = /^\s*[+-]?(\d*)(?:\.(\d*))?\s*$/.exec(e.value);
    if (m) return decimal(Math.max((m[1] ?? '').length + (m[2] ?? '').length, 1), (m[2] ?? '').length);
  }
  // DuckDB's default; PostgreSQL's unconstrained numeric has no fixed scale.
  return decimal(18, 3);
}

function bindCase(ast: Ast, ctx: ExprContext): Expr {
  const operand = ast.expr ? bindExpr(ast.expr, ctx) : null;
  const whens: { when: Expr; result: Expr }[] = [];
  let otherwise: Expr | null = null;
  for (const arm of ast.args) {
    if (arm.type === 'else') {
      otherwise = bindExpr(arm.result, ctx);
      continue;
    }
    let cond = bindExpr(arm.cond, ctx);
    if (operand) {
      const [a, b] = unify(operand, cond, 'operator =');
      cond = { kind: 'binary', op: '=', left: a, right: b, type: BOOL };
    }
    whens.push({ when: requireBool(cond, 'CASE/WHEN'), result: bindExpr(arm.result, ctx) });
  }
  const results = unifyAll([...whens.map((w) => w.result), ...(otherwise ? [otherwise] : [])], 'CASE');
  return {
    kind: 'case',
    whens: whens.map((w, i) => ({ when: w.when, result: results.exprs[i]! })),
    otherwise: otherwise ? results.exprs[whens.length]! : null,
    type: results.type,
  };
}

function functionName(ast: Ast): string {
  const parts = ast.name?.name ?? [ast.name];
  return parts
    .map((p: Ast) => (typeof p === 'string' ? p : p.value))
    .join('.')
    .toLowerCase();
}

function bindFunction(ast: Ast, ctx: ExprContext): Expr {
  const name = functionName(ast);
  const raw: Ast[] = ast.args?.value ?? [];
  if (name === 'grouping') {
    if (typeof ctx.aggregates === 'string')
      throw new PlanError(`grouping operations are not allowed in ${ctx.aggregates}`);
    const inner = { ...ctx, aggregates: 'arguments of GROUPING' };
    return ctx.aggregates.grouping(raw.map((a) => bindExpr(a, inner)));
  }
  // One-argument aggregates arrive as `aggr_func` (rewrite/aggregate-call.ts); this is any other arity.
  if (AGGREGATE_NAMES.has(name))
    throw new PlanError(
      `function ${name}(${raw.map((a) => typeName(bindExpr(a, ctx).type)).join(', ')}) does not exist`,
    );
  if (name === 'not' && raw.length === 1)
    return { kind: 'unary', op: 'not', expr: requireBool(bindExpr(raw[0], ctx), 'NOT'), type: BOOL };
  if (name === 'trim' && raw.some((a) => a.type === 'origin')) return bindTrim(raw, ctx);
  const args = raw.map((a) => bindExpr(a, ctx));
  if (['coalesce', 'nullif', 'greatest', 'least'].includes(name)) return bindCall(name, unifyAll(args, name).exprs);
  return bindCall(name, args);
}

/** TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) arrives as origin keywords among the arguments. */
function bindTrim(raw: Ast[], ctx: ExprContext): Expr {
  const words = raw.filter((a) => a.type === 'origin').map((a) => String(a.value).toLowerCase());
  const values = raw.filter((a) => a.type !== 'origin').map((a) => castTo(bindExpr(a, ctx), UTF8));
  const fn = words.includes('leading') ? 'ltrim' : words.includes('trailing') ? 'rtrim' : 'btrim';
  // With FROM, the characters come first and the string last.
  const args = words.includes('from') && values.length === 2 ? [values[1]!, values[0]!] : values;
  return bindCall(fn, args);
}

/** Resolves a scalar function and casts its arguments to the signature's types. */
export function bindCall(name: string, args: Expr[]): Expr {
  const fn = lookupFunction(name);
  if (!fn) throw new PlanError(`function ${name}(${args.map((a) => typeName(a.type)).join(', ')}) does not exist`);
  const resolved = fn.signature(
    args.map((a) => (a.kind === 'literal' && a.untyped ? UTF8 : a.type)),
    args.map((a) => (a.kind === 'literal' ? a.value : undefined)),
  );
  if (typeof resolved === 'string') throw new PlanError(resolved);
  return {
    kind: 'call',
    name: fn.name,
    args: args.map((a, i) => castTo(a, resolved.args[i]!)),
    type: resolved.returns,
  };
}
