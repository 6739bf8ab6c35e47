// Hand-built engine batches for serializer and server tests: one shape with every awkward value.
import type { Batch, Column, DataType, Field, Schema } from '../../engine/index.js';

export const INT32: DataType = { id: 'int32' };
export const UTF8: DataType = { id: 'utf8' };
export const MONEY: DataType = { id: 'decimal', precision: 15, scale: 2 };
export const DATE: DataType = { id: 'date' };
export const FLOAT64: DataType = { id: 'float64' };
export const BOOL: DataType = { id: 'bool' };

/** Builds a column from JS values; `null` entries become NULLs (the column is nullable then). */
export function column(type: DataType, values: readonly (number | string | boolean | null)[]): Column {
  const n = values.length;
  const hasNull = values.includes(null);
  const valid = hasNull ? Uint8Array.from(values, (v) => (v === null ? 0 : 1)) : null;
  let out: Column['values'];
  if (type.id === 'utf8') out = values.map((v) => (v === null ? '' : String(v)));
  else if (type.id === 'int32' || type.id === 'date') out = Int32Array.from(values, (v) => Number(v ?? 0));
  else if (type.id === 'bool') out = Uint8Array.from(values, (v) => (v ? 1 : 0));
  else out = Float64Array.from(values, (v) => Number(v ?? 0));
  return { type, values: out, valid, length: n };
}

export function schemaOf(cols: readonly (readonly [string, DataType, boolean?])[]): Schema {
  const fields: Field[] = cols.map(([name, type, nullable]) => ({
    name,
    qualifier: null,
    type,
    nullable: nullable ?? true,
  }));
  return { fields };
}

export function batchOf(schema: Schema, columns: readonly Column[]): Batch {
  return { schema, columns, length: columns[0]?.length ?? 0 };
}

/** The `people` fixture: nulls, quotes, commas, newlines, unicode, exact decimals, dates, odd floats. */
export const PEOPLE_SCHEMA = schemaOf([
  ['id', INT32, false],
  ['name', UTF8],
  ['note', UTF8],
  ['amount', MONEY],
  ['born', DATE],
  ['score', FLOAT64],
  ['active', BOOL],
]);

/** Days since 1970-01-01 for an ISO date. */
export const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

export const PEOPLE_ROWS = 5;

export function peopleBatch(): Batch {
  return batchOf(PEOPLE_SCHEMA, [
    column(INT32, [1, 2, 3, 4, 5]),
    column(UTF8, ['Alice', 'Bob', null, 'Zoë', '日本']),
    column(UTF8, ['plain', 'has, comma', 'has "quotes"', 'line1\nline2', '']),
    // decimals are scaled integers: 1250 = 12.50
    column(MONEY, [1250, -305, null, 0, 123456789]),
    column(DATE, [day('1990-01-02'), null, day('2000-02-29'), day('1970-01-01'), day('2024-12-31')]),
    column(FLOAT64, [1.5, Number.NaN, null, Number.POSITIVE_INFINITY, -0.25]),
    column(BOOL, [true, false, null, true, false]),
  ]);
}

/** Values as UTF-8 bytes with Arrow offsets (how Parquet decoding and accelerated tables hold text). */
export function utf8Bytes(values: readonly string[]): { offsets: Int32Array; bytes: Uint8Array } {
  const encoder = new TextEncoder();
  const encoded = values.map((v) => encoder.encode(v));
  const offsets = new Int32Array(values.length + 1);
  for (const [i, b] of encoded.entries()) offsets[i + 1] = offsets[i]! + b.length;
  const bytes = new Uint8Array(offsets[values.length]!);
  for (const [i, b] of encoded.entries()) bytes.set(b, offsets[i]!);
  return { offsets, bytes };
}

/** A utf8 column over UTF-8 bytes; `null` entries are NULL rows (empty bytes). */
export function bytesColumn(values: readonly (string | null)[]): Column {
  const valid = values.includes(null) ? Uint8Array.from(values, (v) => (v === null ? 0 : 1)) : null;
  return { type: UTF8, values: utf8Bytes(values.map((v) => v ?? '')), valid, length: values.length };
}
