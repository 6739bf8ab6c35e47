// Logical expressions: typed, plain data, resolved by the binder; `Expr` is the union of every kind.
import type { LogicalPlan } from '../logical/index.js';
import type { DataType, Field } from '../types.js';

/** A literal's value: decimals as scaled integers, dates as days, timestamps as microseconds. */
export type LiteralValue = null | boolean | number | bigint | string | IntervalValue;

export interface IntervalValue {
  readonly months: number;
  readonly days: number;
  readonly micros: number;
}

export interface ColumnExpr {
  readonly kind: 'column';
  readonly qualifier: string | null;
  readonly name: string;
  readonly type: DataType;
}

export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: LiteralValue;
  readonly type: DataType;
  /** A quoted string whose type the context decides (PostgreSQL's `unknown` literal). */
  readonly untyped?: boolean;
}

export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';
export type ComparisonOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type BinaryOp = ArithmeticOp | ComparisonOp | 'and' | 'or' | '||';

export interface BinaryExpr {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly type: DataType;
}

export type UnaryOp =
  | 'not'
  | 'neg'
  | 'is_null'
  | 'is_not_null'
  | 'is_true'
  | 'is_false'
  | 'is_not_true'
  | 'is_not_false';

export interface UnaryExpr {
  readonly kind: 'unary';
  readonly op: UnaryOp;
  readonly expr: Expr;
  readonly type: DataType;
}

export interface CastExpr {
  readonly kind: 'cast';
  readonly expr: Expr;
  readonly type: DataType;
}

/** A scalar function call, resolved against the function registry by name. */
export interface CallExpr {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly Expr[];
  readonly type: DataType;
}

export interface CaseExpr {
  readonly kind: 'case';
  readonly whens: readonly { readonly when: Expr; readonly result: Expr }[];
  readonly otherwise: Expr | null;
  readonly type: DataType;
}

export interface InListExpr {
  readonly kind: 'in_list';
  readonly expr: Expr;
  readonly list: readonly Expr[];
  readonly negated: boolean;
  readonly type: DataType;
}

export interface LikeExpr {
  readonly kind: 'like';
  readonly expr: Expr;
  readonly pattern: Expr;
  readonly negated: boolean;
  readonly caseInsensitive: boolean;
  /** The escape character (default backslash); '' disables escaping. */
  readonly escape: string;
  readonly type: DataType;
}

/** A column of an enclosing query, read inside a correlated subquery (gone once subqueries are unnested). */
export interface OuterColumnExpr {
  readonly kind: 'outer_column';
  readonly qualifier: string | null;
  readonly name: string;
  readonly type: DataType;
}

/**
 * A subquery used as a value: `scalar` (one column, at most one row), `exists`, `in` (`expr IN (plan)`), or
 * `any`/`all` (`expr op ANY|ALL (plan)`, with `op`). The binder leaves these in place; unnesting turns them into
 * joins before anything runs.
 */
export interface SubqueryExpr {
  readonly kind: 'subquery';
  readonly subquery: 'scalar' | 'exists' | 'in' | 'any' | 'all';
  readonly plan: LogicalPlan;
  /** The left operand of IN, ANY and ALL; `null` otherwise. */
  readonly expr: Expr | null;
  /** The comparison of ANY and ALL. */
  readonly op?: ComparisonOp;
  readonly negated: boolean;
  /** Distinguishes subqueries in EXPLAIN text and names their join's columns. */
  readonly id: number;
  readonly type: DataType;
}

export type Expr =
  | OuterColumnExpr
  | SubqueryExpr
  | ColumnExpr
  | LiteralExpr
  | BinaryExpr
  | UnaryExpr
  | CastExpr
  | CallExpr
  | CaseExpr
  | InListExpr
  | LikeExpr;

/** The direct children of an expression, in evaluation order. */
export function exprChildren(e: Expr): Expr[] {
  switch (e.kind) {
    case 'column':
    case 'literal':
    case 'outer_column':
      return [];
    case 'subquery':
      return e.expr ? [e.expr] : [];
    case 'binary':
      return [e.left, e.right];
    case 'unary':
    case 'cast':
      return [e.expr];
    case 'call':
      return [...e.args];
    case 'case':
      return [...e.whens.flatMap((w) => [w.when, w.result]), ...(e.otherwise ? [e.otherwise] : [])];
    case 'in_list':
      return [e.expr, ...e.list];
    case 'like':
      return [e.expr, e.pattern];
  }
}

/** Rebuilds `e` with new children (same order as `exprChildren`). */
export function withChildren(e: Expr, c: readonly Expr[]): Expr {
  switch (e.kind) {
    case 'column':
    case 'literal':
    case 'outer_column':
      return e;
    case 'subquery':
      return e.expr ? { ...e, expr: c[0]! } : e;
    case 'binary':
      return { ...e, left: c[0]!, right: c[1]! };
    case 'unary':
    case 'cast':
      return { ...e, expr: c[0]! };
    case 'call':
      return { ...e, args: c };
    case 'case': {
      const whens = e.whens.map((_, i) => ({ when: c[2 * i]!, result: c[2 * i + 1]! }));
      return { ...e, whens, otherwise: e.otherwise ? c[2 * e.whens.length]! : null };
    }
    case 'in_list':
      return { ...e, expr: c[0]!, list: c.slice(1) };
    case 'like':
      return { ...e, expr: c[0]!, pattern: c[1]! };
  }
}

/** Bottom-up rewrite: `f` sees each node after its children were rewritten. */
export function transformExpr(e: Expr, f: (e: Expr) => Expr): Expr {
  const kids = exprChildren(e);
  const next =
    kids.length === 0
      ? e
      : withChildren(
          e,
          kids.map((k) => transformExpr(k, f)),
        );
  return f(next);
}

export function someExpr(e: Expr, pred: (e: Expr) => boolean): boolean {
  return pred(e) || exprChildren(e).some((k) => someExpr(k, pred));
}

/** Every column the expression reads. */
export function columnsOf(e: Expr, out: ColumnExpr[] = []): ColumnExpr[] {
  if (e.kind === 'column') out.push(e);
  for (const k of exprChildren(e)) columnsOf(k, out);
  return out;
}

export function col(qualifier: string | null, name: string, type: DataType): ColumnExpr {
  return { kind: 'column', qualifier, name, type };
}

export function lit(value: LiteralValue, type: DataType): LiteralExpr {
  return { kind: 'literal', value, type };
}

/** Splits `a AND b AND c` into its conjuncts. */
export function splitConjuncts(e: Expr): Expr[] {
  if (e.kind === 'binary' && e.op === 'and') return [...splitConjuncts(e.left), ...splitConjuncts(e.right)];
  return [e];
}

export function conjoin(parts: readonly Expr[]): Expr | null {
  if (parts.length === 0) return null;
  return parts.reduce((a, b) => ({ kind: 'binary', op: 'and', left: a, right: b, type: { id: 'bool' } }));
}

/**
 * Which of two inputs an expression's columns come from: `left`, `right`, `both` (also when a name is in both, or
 * an outer or subquery reference is involved) or `none` (no columns).
 */
export function sideOfExpr(
  e: Expr,
  left: readonly Field[],
  right: readonly Field[],
): 'left' | 'right' | 'both' | 'none' {
  if (someExpr(e, (x) => x.kind === 'subquery' || x.kind === 'outer_column')) return 'both';
  const has = (fields: readonly Field[], c: ColumnExpr) =>
    fields.some((f) => f.name === c.name && (c.qualifier === null || f.qualifier === c.qualifier));
  let inLeft = false;
  let inRight = false;
  for (const c of columnsOf(e)) {
    const l = has(left, c);
    const r = has(right, c);
    if (l === r) return 'both';
    if (l) inLeft = true;
    else inRight = true;
  }
  return inLeft && inRight ? 'both' : inLeft ? 'left' : inRight ? 'right' : 'none';
}
