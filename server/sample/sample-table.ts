// `makeSampleTable`: builds one table's columns (for `writeParquetFile`) from per-row generator functions.
import type { DataType, writeParquetFile } from '../../engine/index.js';

/** One column: name, type, and the value of row i (numbers for numeric/date types, strings for utf8). */
export type ColumnDef = readonly [name: string, type: DataType, value: (row: number) => number | string];

/** The engine writer's column input: name, type and plain values. */
export type ColumnInput = Parameters<typeof writeParquetFile>[1][number];

export interface SampleTable {
  readonly name: string;
  readonly rows: number;
  readonly columns: readonly ColumnInput[];
}

/**
 * Materialises `rows` rows per column: int32 and date (days since 1970-01-01) in Int32Array, decimals as
 * scaled integers in Float64Array, strings as JS strings. No NULLs (TPC-H has none), so columns are
 * declared non-nullable.
 */
export function makeSampleTable(name: string, rows: number, defs: readonly ColumnDef[]): SampleTable {
  const columns = defs.map(([col, type, value]) => ({
    name: col,
    type,
    nullable: false,
    values: values(type, rows, value),
  }));
  return { name, rows, columns };
}

function values(type: DataType, rows: number, value: (row: number) => number | string): ArrayLike<number | string> {
  const out =
    type.id === 'utf8'
      ? new Array<string>(rows)
      : type.id === 'int32' || type.id === 'date'
        ? new Int32Array(rows)
        : new Float64Array(rows);
  for (let i = 0; i < rows; i++) (out as (number | string)[])[i] = value(i);
  return out;
}

export const INT32: DataType = { id: 'int32' };
export const UTF8: DataType = { id: 'utf8' };
export const DATE: DataType = { id: 'date' };
/** TPC-H money: decimal(15,2). */
export const MONEY: DataType = { id: 'decimal', precision: 15, scale: 2 };
