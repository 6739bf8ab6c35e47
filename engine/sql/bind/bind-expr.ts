// `bindExpr` turns a node-sql-parser expression into a typed `Expr`, applying PostgreSQL's implicit casts.
import { NotSupportedError, PlanError } from '../../errors.js';
import { AGGREGATE_NAMES, lookupFunction } from '../../functions/registry.js';
import type { BinaryOp, ColumnExpr, ComparisonOp, Expr, LiteralExpr } from '../../plan/expr/index.js';
import type { AggregateCall, AggregateFn, LogicalPlan } from '../../plan/logical/index.js';
import {
  BOOL,
  DATE,
  type DataType,
  decimal,
  FLOAT64,
  MAX_DECIMAL_PRECISION,
  NULL,
  TIMESTAMP,
  typeName,
  UTF8,
} from '../../plan/types.js';
import { parseDate, parseTimestamp } from '../../plan/values.js';
import type { Ast } from '../parse.js';
import { bindAggregateCall } from './bind-aggregate-call.js';
import { bindLiteral, bindNumber, parseInterval } from './bind-literal.js';
import { bindSubqueryExpr } from './bind-subquery.js';
import { arithmeticTypes, castTo, parseTypeName, requireBool, unify, unifyAll } from './coerce.js';
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

const COMPARISONS: Record<string, ComparisonOp> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

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
      const src = ast.args.cast_type
        ? typedLiteral(String(ast.args.cast_type).toLowerCase(), String(ast.args.source.value))
        : bindExpr(ast.args.source, ctx);
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

function bindUnary(ast: Ast, ctx: ExprContext): Expr {
  const inner = bindExpr(ast.expr, ctx);
  const op = String(ast.operator).toUpperCase();
  if (op === 'NOT') return { kind: 'unary', op: 'not', expr: requireBool(inner, 'NOT'), type: BOOL };
  if (op === '+') return inner;
  if (op === '-') {
    if (inner.kind === 'literal' && (typeof inner.value === 'number' || typeof inner.value === 'bigint')) {
      return { ...inner, value: -inner.value as number };
    }
    const e = inner.kind === 'literal' && inner.untyped ? castTo(inner, FLOAT64) : inner;
    if (!['int32', 'int64', 'float64', 'decimal', 'null', 'interval'].includes(e.type.id)) {
      throw new PlanError(`operator does not exist: - ${typeName(e.type)}`);
    }
    return { kind: 'unary', op: 'neg', expr: e, type: e.type };
  }
  throw new NotSupportedError(`unary operator ${ast.operator} is not supported`);
}

function bindBinary(ast: Ast, ctx: ExprContext): Expr {
  const op = String(ast.operator).toUpperCase();
  const left = () => bindExpr(ast.left, ctx);
  if (op === 'AND' || op === 'OR') {
    const l = requireBool(left(), op);
    const r = requireBool(bindExpr(ast.right, ctx), op);
    return { kind: 'binary', op: op === 'AND' ? 'and' : 'or', left: l, right: r, type: BOOL };
  }
  if (op === 'IN' || op === 'NOT IN' || op === 'NOTIN') return bindIn(left(), ast.right, op !== 'IN', ctx);
  if (op === 'BETWEEN' || op === 'NOT BETWEEN' || op === 'NOTBETWEEN')
    return bindBetween(left(), ast.right, op !== 'BETWEEN', ctx);
  if (op === 'IS DISTINCT FROM' || op === 'IS NOT DISTINCT FROM') {
    // Both arrive through rewrite/is-distinct-from.ts.
    const [a, b] = unify(left(), bindExpr(ast.right, ctx), op);
    return bindCall(op === 'IS DISTINCT FROM' ? 'is_distinct_from' : 'is_not_distinct_from', [a, b]);
  }
  if (op === 'IS' || op === 'IS NOT' || op === 'ISNOT') return bindIs(left(), ast.right, op !== 'IS');
  const likeOps: Record<string, [boolean, boolean]> = {
    LIKE: [false, false],
    NOTLIKE: [true, false],
    'NOT LIKE': [true, false],
    ILIKE: [false, true],
    NOTILIKE: [true, true],
    'NOT ILIKE': [true, true],
  };
  if (op in likeOps) {
    const [negated, caseInsensitive] = likeOps[op]!;
    const l = castTo(left(), UTF8);
    const p = castTo(bindExpr(ast.right, ctx), UTF8);
    const esc = ast.right?.escape?.value;
    const escapeChar = esc === undefined ? '\\' : String(esc.value ?? '');
    if (escapeChar.length > 1) throw new PlanError('invalid escape string: it must be empty or one character');
    return { kind: 'like', expr: l, pattern: p, negated, caseInsensitive, escape: escapeChar, type: BOOL };
  }
  if (op in REGEX_OPS || op === 'SIMILAR TO' || op === 'NOT SIMILAR TO') return bindRegexMatch(op, ast, ctx);
  const l = left();
  const r = bindExpr(ast.right, ctx);
  if (op in COMPARISONS) {
    // Decimals whose common scale would need more than 18 digits compare exactly as they are (the kernel rescales).
    if (l.type.id === 'decimal' && r.type.id === 'decimal' && !fitsCommonScale(l.type, r.type))
      return { kind: 'binary', op: COMPARISONS[op]!, left: l, right: r, type: BOOL };
    const [a, b] = unify(l, r, `operator ${op}`);
    return { kind: 'binary', op: COMPARISONS[op]!, left: a, right: b, type: BOOL };
  }
  if (op === '||') return bindCall('textcat', [castTo(l, UTF8), castTo(r, UTF8)]);
  if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%') {
    const [a, b, type] = arithmeticTypes(op, l, r);
    return { kind: 'binary', op: op as BinaryOp, left: a, right: b, type };
  }
  throw new NotSupportedError(`operator ${ast.operator} is not supported yet`);
}

function fitsCommonScale(a: DataType & { id: 'decimal' }, b: DataType & { id: 'decimal' }): boolean {
  if (a.scale === b.scale) return true;
  return Math.max(a.precision - a.scale, b.precision - b.scale) + Math.max(a.scale, b.scale) <= MAX_DECIMAL_PRECISION;
}

/** `~` `~*` `!~` `!~*`: [negated, case-insensitive]. */
const REGEX_OPS: Record<string, [boolean, boolean]> = {
  '~': [false, false],
  '~*': [false, true],
  '!~': [true, false],
  '!~*': [true, true],
};

/** `s ~ p` is regexp_like(s, p); `s SIMILAR TO p [ESCAPE e]` is `s ~ similar_to_escape(p [, e])`, as in PostgreSQL. */
function bindRegexMatch(op: string, ast: Ast, ctx: ExprContext): Expr {
  const s = castTo(bindExpr(ast.left, ctx), UTF8);
  let p = castTo(bindExpr(ast.right, ctx), UTF8);
  const [negated, caseInsensitive] = REGEX_OPS[op] ?? [op.startsWith('NOT'), false];
  if (!(op in REGEX_OPS)) {
    const esc = ast.right?.escape?.value;
    p = bindCall('similar_to_escape', esc === undefined ? [p] : [p, castTo(bindExpr(esc, ctx), UTF8)]);
  }
  const match = bindCall('regexp_like', caseInsensitive ? [s, p, bindLiteral('i')] : [s, p]);
  return negated ? { kind: 'unary', op: 'not', expr: match, type: BOOL } : match;
}

function bindIn(e: Expr, list: Ast, negated: boolean, ctx: ExprContext): Expr {
  if (list.type !== 'expr_list' || list.value?.some((v: Ast) => v.ast || v.type === 'select')) {
    throw new NotSupportedError('IN (subquery) is not supported yet');
  }
  const items = list.value.map((v: Ast) => bindExpr(v, ctx));
  const { exprs } = unifyAll([e, ...items], 'IN');
  return { kind: 'in_list', expr: exprs[0]!, list: exprs.slice(1), negated, type: BOOL };
}

function bindBetween(e: Expr, range: Ast, negated: boolean, ctx: ExprContext): Expr {
  const [lo, hi] = range.value.map((v: Ast) => bindExpr(v, ctx));
  const [a1, l] = unify(e, lo, 'operator BETWEEN');
  const [a2, h] = unify(e, hi, 'operator BETWEEN');
  const inside: Expr = {
    kind: 'binary',
    op: 'and',
    left: { kind: 'binary', op: '>=', left: a1, right: l, type: BOOL },
    right: { kind: 'binary', op: '<=', left: a2, right: h, type: BOOL },
    type: BOOL,
  };
  return negated ? { kind: 'unary', op: 'not', expr: inside, type: BOOL } : inside;
}

function bindIs(e: Expr, right: Ast, negated: boolean): Expr {
  if (right.type === 'null') return { kind: 'unary', op: negated ? 'is_not_null' : 'is_null', expr: e, type: BOOL };
  if (right.type === 'bool') {
    const truth = Boolean(right.value);
    const op = truth ? (negated ? 'is_not_true' : 'is_true') : negated ? 'is_not_false' : 'is_false';
    return { kind: 'unary', op, expr: requireBool(e, 'IS'), type: BOOL };
  }
  throw new PlanError('syntax error: IS must be followed by NULL, TRUE, FALSE, UNKNOWN or [NOT] DISTINCT FROM');
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
