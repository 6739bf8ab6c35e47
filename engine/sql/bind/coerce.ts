// Type rules: the common type of two operands, arithmetic result types, and implicit casts (PostgreSQL's).
import { PlanError } from '../../errors.js';
import type { ArithmeticOp, Expr } from '../../plan/expr/index.js';
import {
  BOOL,
  DATE,
  type DataType,
  decimal,
  FLOAT64,
  INT32,
  INT64,
  INTERVAL,
  isNumeric,
  sameType,
  TIMESTAMP,
  typeName,
  UTF8,
} from '../../plan/types.js';

/** int32 as decimal(10,0), int64 as decimal(19,0), decimal as itself. */
function asDecimal(t: DataType): { precision: number; scale: number } {
  if (t.id === 'decimal') return t;
  return { precision: t.id === 'int32' ? 10 : 19, scale: 0 };
}

/** The type two numeric operands are compared or combined in. */
export function commonNumeric(a: DataType, b: DataType): DataType {
  if (a.id === 'float64' || b.id === 'float64') return FLOAT64;
  if (a.id === 'decimal' || b.id === 'decimal') {
    const x = asDecimal(a);
    const y = asDecimal(b);
    const scale = Math.max(x.scale, y.scale);
    return decimal(Math.max(x.precision - x.scale, y.precision - y.scale) + scale, scale);
  }
  if (a.id === 'int64' || b.id === 'int64') return INT64;
  return INT32;
}

/** The common type of two values that are compared, unioned or put in one CASE, or null if none. */
export function commonType(a: DataType, b: DataType): DataType | null {
  if (a.id === 'null') return b;
  if (b.id === 'null') return a;
  if (sameType(a, b)) return a;
  if (isNumeric(a) && isNumeric(b)) return commonNumeric(a, b);
  if ((a.id === 'date' && b.id === 'timestamp') || (a.id === 'timestamp' && b.id === 'date')) return TIMESTAMP;
  if (a.id === b.id) return a;
  return null;
}

/** Whether `e` is a quoted string whose type the context decides. */
export function isUntypedString(e: Expr): boolean {
  return e.kind === 'literal' && e.untyped === true;
}

/** Casts `e` to `t` unless it already has that type. */
export function castTo(e: Expr, t: DataType): Expr {
  if (sameType(e.type, t)) return e;
  // `x::text::boolean` of a boolean x is x (these types read their own text back unchanged): folded, an equality
  // under it stays a join key instead of turning the join into a nested loop.
  if (e.kind === 'cast' && e.type.id === 'utf8' && TEXT_ROUND_TRIP.has(t.id) && sameType(e.expr.type, t)) return e.expr;
  if (e.kind === 'literal' && e.value === null) return { kind: 'literal', value: null, type: t };
  return { kind: 'cast', expr: e, type: t };
}

const TEXT_ROUND_TRIP: ReadonlySet<string> = new Set(['bool', 'int32', 'int64', 'date']);

/** Brings two operands of a comparison (or CASE/IN/COALESCE arms) to one type. */
export function unify(a: Expr, b: Expr, context: string): [Expr, Expr, DataType] {
  if (isUntypedString(a) && !isUntypedString(b) && b.type.id !== 'null') return [castTo(a, b.type), b, b.type];
  if (isUntypedString(b) && !isUntypedString(a) && a.type.id !== 'null') return [a, castTo(b, a.type), a.type];
  const t = commonType(a.type, b.type);
  if (t === null) {
    throw new PlanError(`${context} does not exist: ${typeName(a.type)} and ${typeName(b.type)} cannot be matched`);
  }
  return [castTo(a, t), castTo(b, t), t];
}

/** Unifies a list of expressions to their common type (null literals and untyped strings follow the others). */
export function unifyAll(exprs: readonly Expr[], context: string): { exprs: Expr[]; type: DataType } {
  let t: DataType = { id: 'null' };
  for (const e of exprs) {
    if (isUntypedString(e)) continue;
    const next = commonType(t, e.type);
    if (next === null) throw new PlanError(`${context} types ${typeName(t)} and ${typeName(e.type)} cannot be matched`);
    t = next;
  }
  if (t.id === 'null' && exprs.some(isUntypedString)) t = UTF8;
  return { exprs: exprs.map((e) => castTo(e, t)), type: t };
}

/** Result type of `left op right`, with the operands cast as the operator needs them. */
export function arithmeticTypes(op: ArithmeticOp, l: Expr, r: Expr): [Expr, Expr, DataType] {
  if (isUntypedString(l)) l = castTo(l, r.type.id === 'null' ? FLOAT64 : r.type.id === 'date' ? INT32 : r.type);
  if (isUntypedString(r)) r = castTo(r, l.type.id === 'date' ? INT32 : l.type);
  const a = l.type;
  const b = r.type;
  const dated = dateArithmetic(op, a, b);
  if (dated) return [l, r, dated];
  if (a.id === 'null' || b.id === 'null') {
    const t = a.id === 'null' ? b : a;
    const type = isNumeric(t) ? t : FLOAT64;
    // The NULL side takes the result type: the kernels read typed value arrays (a NULL column has none).
    return [a.id === 'null' ? castTo(l, type) : l, b.id === 'null' ? castTo(r, type) : r, type];
  }
  if (!isNumeric(a) || !isNumeric(b)) {
    throw new PlanError(`operator does not exist: ${typeName(a)} ${op} ${typeName(b)}`);
  }
  const t = commonNumeric(a, b);
  if (t.id !== 'decimal') return [castTo(l, t), castTo(r, t), t];
  const x = asDecimal(a);
  const y = asDecimal(b);
  switch (op) {
    case '+':
    case '-':
      return [castTo(l, t), castTo(r, t), decimal(t.precision + 1, t.scale)];
    case '*':
      return [l, r, decimal(x.precision + y.precision, x.scale + y.scale)];
    case '/':
      // DuckDB's rule (PostgreSQL returns numeric with a data-dependent scale).
      return [castTo(l, FLOAT64), castTo(r, FLOAT64), FLOAT64];
    case '%':
      return [castTo(l, t), castTo(r, t), t];
  }
}

/** PostgreSQL has date ± integer, not date ± bigint (a bigint of days is no date; it crashed the kernel). */
function dateArithmetic(op: ArithmeticOp, a: DataType, b: DataType): DataType | null {
  if (a.id === 'date' && b.id === 'int32' && (op === '+' || op === '-')) return DATE;
  if (b.id === 'date' && a.id === 'int32' && op === '+') return DATE;
  if (a.id === 'date' && b.id === 'date' && op === '-') return INT32;
  if ((a.id === 'date' || a.id === 'timestamp') && b.id === 'interval' && (op === '+' || op === '-')) return TIMESTAMP;
  if (a.id === 'interval' && (b.id === 'date' || b.id === 'timestamp') && op === '+') return TIMESTAMP;
  if (a.id === 'interval' && b.id === 'interval' && (op === '+' || op === '-')) return INTERVAL;
  return null;
}

/** Requires a boolean (or NULL) condition, as WHERE, HAVING, AND, OR and NOT do. */
export function requireBool(e: Expr, clause: string): Expr {
  if (isUntypedString(e)) return castTo(e, BOOL);
  if (e.type.id === 'bool' || e.type.id === 'null') return e.type.id === 'null' ? castTo(e, BOOL) : e;
  throw new PlanError(`argument of ${clause} must be type boolean, not type ${typeName(e.type)}`);
}

/** Parses a SQL type name from the AST (`DECIMAL(15,2)`, `INT`, `VARCHAR`, ...). */
export function parseTypeName(name: string, length?: number | null, scale?: number | null): DataType {
  const n = name.toLowerCase().replace(/\s+/g, ' ');
  if (['int', 'integer', 'int4', 'smallint', 'int2', 'tinyint'].includes(n)) return INT32;
  if (['bigint', 'int8', 'long'].includes(n)) return INT64;
  if (['double', 'double precision', 'float8', 'float', 'real', 'float4'].includes(n)) return FLOAT64;
  if (['decimal', 'numeric'].includes(n)) return decimal(length ?? 18, scale ?? 0);
  if (['text', 'varchar', 'char', 'character', 'character varying', 'string', 'bpchar'].includes(n)) return UTF8;
  if (['bool', 'boolean'].includes(n)) return BOOL;
  if (n === 'date') return DATE;
  if (['timestamp', 'datetime', 'timestamp without time zone'].includes(n)) return TIMESTAMP;
  throw new PlanError(`type "${name.toLowerCase()}" does not exist or is not supported`);
}
