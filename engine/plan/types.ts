// SQL data types, fields and schemas: plain data shared by every layer of the engine.

export type DataType =
  | { readonly id: 'null' }
  | { readonly id: 'bool' }
  | { readonly id: 'int32' }
  | { readonly id: 'int64' }
  | { readonly id: 'float64' }
  | { readonly id: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly id: 'utf8' }
  | { readonly id: 'date' }
  | { readonly id: 'timestamp'; readonly tz: string | null }
  | { readonly id: 'interval' };

export type TypeId = DataType['id'];

export interface Field {
  readonly name: string;
  /** Table alias or name the column came from; `null` for computed columns. */
  readonly qualifier: string | null;
  readonly type: DataType;
  readonly nullable: boolean;
}

export interface Schema {
  readonly fields: readonly Field[];
}

export const NULL: DataType = { id: 'null' };
export const BOOL: DataType = { id: 'bool' };
export const INT32: DataType = { id: 'int32' };
export const INT64: DataType = { id: 'int64' };
export const FLOAT64: DataType = { id: 'float64' };
export const UTF8: DataType = { id: 'utf8' };
export const DATE: DataType = { id: 'date' };
export const TIMESTAMP: DataType = { id: 'timestamp', tz: null };
export const INTERVAL: DataType = { id: 'interval' };

/** Largest decimal precision floe computes exactly (scaled values in a signed 64-bit integer). */
export const MAX_DECIMAL_PRECISION = 18;

export function decimal(precision: number, scale: number): DataType {
  return { id: 'decimal', precision: Math.min(precision, 38), scale };
}

export function isNumeric(t: DataType): boolean {
  return t.id === 'int32' || t.id === 'int64' || t.id === 'float64' || t.id === 'decimal';
}

export function isInteger(t: DataType): boolean {
  return t.id === 'int32' || t.id === 'int64';
}

export function sameType(a: DataType, b: DataType): boolean {
  if (a.id !== b.id) return false;
  if (a.id === 'decimal' && b.id === 'decimal') return a.precision === b.precision && a.scale === b.scale;
  return true;
}

/** The SQL spelling used in EXPLAIN text and error messages (PostgreSQL names). */
export function typeName(t: DataType): string {
  switch (t.id) {
    case 'null':
      return 'unknown';
    case 'bool':
      return 'boolean';
    case 'int32':
      return 'integer';
    case 'int64':
      return 'bigint';
    case 'float64':
      return 'double precision';
    case 'decimal':
      return `numeric(${t.precision},${t.scale})`;
    case 'utf8':
      return 'text';
    case 'date':
      return 'date';
    case 'timestamp':
      return t.tz ? 'timestamp with time zone' : 'timestamp';
    case 'interval':
      return 'interval';
  }
}

/** Arrow's name for the type, as Arrow's Rust `DataType` displays it (used by the vendor JSON schema). */
export function arrowTypeName(t: DataType): string {
  switch (t.id) {
    case 'null':
      return 'Null';
    case 'bool':
      return 'Boolean';
    case 'int32':
      return 'Int32';
    case 'int64':
      return 'Int64';
    case 'float64':
      return 'Float64';
    case 'decimal':
      return `Decimal128(${t.precision}, ${t.scale})`;
    case 'utf8':
      return 'Utf8';
    case 'date':
      return 'Date32';
    case 'timestamp':
      return t.tz ? `Timestamp(Microsecond, Some("${t.tz}"))` : 'Timestamp(Microsecond, None)';
    case 'interval':
      return 'Interval(MonthDayNano)';
  }
}

export function field(name: string, type: DataType, nullable = true, qualifier: string | null = null): Field {
  return { name, qualifier, type, nullable };
}

/** Position of the first field named `name` (and qualified `qualifier`, unless null) in `schema`; -1 if none. */
export function fieldIndex(schema: Schema, qualifier: string | null, name: string): number {
  return schema.fields.findIndex((f) => f.name === name && (qualifier === null || f.qualifier === qualifier));
}
