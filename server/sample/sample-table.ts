// `makeSampleTable`: builds one in-memory table (schema + one batch) from per-row generator functions.
import type { Batch, Column, DataType, Field } from '../../engine/index.js';

/** One column: name, type, and the value of row i (numbers for numeric/date types, strings for utf8). */
export type ColumnDef = readonly [name: string, type: DataType, value: (row: number) => number | string];

export interface SampleTable {
  readonly name: string;
  readonly batch: Batch;
}

/**
 * Materialises `rows` rows in the engine's column layout: int32 and date (days since 1970-01-01) in
 * Int32Array, decimals as scaled integers in Float64Array, strings as JS strings. No NULLs (TPC-H has none).
 */
export function makeSampleTable(name: string, rows: number, defs: readonly ColumnDef[]): SampleTable {
  const fields: Field[] = defs.map(([col, type]) => ({ name: col, qualifier: null, type, nullable: false }));
  const columns: Column[] = defs.map(([, type, value]) => makeColumn(type, rows, value));
  return { name, batch: { schema: { fields }, columns, length: rows } };
}

function makeColumn(type: DataType, rows: number, value: (row: number) => number | string): Column {
  const values =
    type.id === 'utf8'
      ? new Array<string>(rows)
      : type.id === 'int32' || type.id === 'date'
        ? new Int32Array(rows)
        : new Float64Array(rows);
  for (let i = 0; i < rows; i++) (values as (number | string)[])[i] = value(i);
  return { type, values, valid: null, length: rows };
}

export const INT32: DataType = { id: 'int32' };
export const UTF8: DataType = { id: 'utf8' };
export const DATE: DataType = { id: 'date' };
/** TPC-H money: decimal(15,2). */
export const MONEY: DataType = { id: 'decimal', precision: 15, scale: 2 };
