// `assignTo`: PostgreSQL's assignment casts, which INSERT and CREATE TABLE AS apply to each value stored in a column.
import { PlanError } from '../../errors.js';
import type { Expr } from '../../plan/expr/index.js';
import { type DataType, isNumeric, sameType, typeName } from '../../plan/types.js';
import { castTo, isUntypedString } from './coerce.js';

/**
 * `e` cast to the column's type where PostgreSQL casts in assignment: between numeric types (numeric -> integer
 * rounds, overflow is an error when the row is cast), anything to text, date <-> timestamp, timestamp <->
 * timestamptz, and a quoted literal or NULL to any type. Any other pair (boolean -> integer, text -> date) is
 * PostgreSQL's `column "x" is of type ... but expression is of type ...`.
 */
export function assignTo(e: Expr, type: DataType, column: string): Expr {
  if (sameType(e.type, type)) return e;
  if (isUntypedString(e) || e.type.id === 'null' || assignable(e.type, type)) return castTo(e, type);
  throw new PlanError(
    `column "${column}" is of type ${pgTypeName(type)} but expression is of type ${pgTypeName(e.type)}`,
  );
}

function assignable(from: DataType, to: DataType): boolean {
  if (isNumeric(from) && isNumeric(to)) return true;
  if (to.id === 'utf8') return true;
  const temporal = (t: DataType) => t.id === 'date' || t.id === 'timestamp';
  return temporal(from) && temporal(to);
}

/** A type as PostgreSQL's messages name it (`format_type_be`: no precision, `timestamp without time zone`). */
export function pgTypeName(t: DataType): string {
  if (t.id === 'decimal') return 'numeric';
  if (t.id === 'timestamp' && !t.tz) return 'timestamp without time zone';
  return typeName(t);
}
