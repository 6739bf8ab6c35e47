// Query results as canonical text rows, from floe or DuckDB, and the check that two results are the same:
// decimals, integers, dates and text exactly; floats within FLOAT_REL_TOLERANCE; rows in any order unless ordered.
import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  type DuckDBResultReader,
  DuckDBTimestampValue,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api';
import { type Batch, cellText, type Schema } from '../../engine/index.js';
import type { RowsCut } from './result-order.js';

export { orderColumns, type ResultOrder, type RowsCut, resultOrder } from './result-order.js';

const NO_CUT: RowsCut = { limit: false, offset: false };

/** Relative tolerance for floats: summation order differs between engines (and between runs of one). */
export const FLOAT_REL_TOLERANCE = 1e-9;

export type Row = (string | null)[];
export type Rows = Row[];

export interface ResultRows {
  readonly names: readonly string[];
  /** True for float columns: their cells compare within FLOAT_REL_TOLERANCE. */
  readonly floats: readonly boolean[];
  /** Cell text (floe's `cellText` forms), null for NULL. */
  readonly rows: Rows;
}

/** Drains a floe result into text rows. */
export async function floeRows(schema: Schema, batches: AsyncIterable<Batch>): Promise<ResultRows> {
  const rows: Rows = [];
  for await (const batch of batches) {
    for (let i = 0; i < batch.length; i++) rows.push(batch.columns.map((c) => cellText(c, i)));
  }
  return {
    names: schema.fields.map((f) => f.name),
    floats: schema.fields.map((f) => f.type.id === 'float64'),
    rows,
  };
}

/** A DuckDB result as the same text floe prints (decimals exact, dates `YYYY-MM-DD`). */
export function duckdbRows(reader: DuckDBResultReader): ResultRows {
  return {
    names: reader.columnNames(),
    floats: reader.columnTypes().map((t) => t.typeId === DuckDBTypeId.DOUBLE || t.typeId === DuckDBTypeId.FLOAT),
    rows: reader.getRows().map((row) => row.map(duckText)),
  };
}

/** floe's text for a DuckDB value: decimals exact, dates `YYYY-MM-DD`, timestamps without trailing zeros. */
export function duckText(v: DuckDBValue): string | null {
  if (v === null) return null;
  if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return String(v);
  if (v instanceof DuckDBDecimalValue || v instanceof DuckDBDateValue) return v.toString();
  if (v instanceof DuckDBTimestampValue) return timestampText(v.micros);
  throw new Error(`no text form for the DuckDB value ${String(v)}`);
}

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` with trailing zeros of the fraction removed, as floe prints timestamps. */
function timestampText(micros: bigint): string {
  const secs = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  const frac = Number(micros - secs * 1_000_000n);
  const base = new Date(Number(secs) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return frac === 0 ? base : `${base}.${String(frac).padStart(6, '0').replace(/0+$/, '')}`;
}

/**
 * Why `actual` and `expected` differ, or null when they hold the same rows. `order`: false = any order; true =
 * the same order; column indexes = ordered by those columns, rows with equal values there in any order among
 * themselves (SQL leaves the order of ties open). `cut`: the rows were cut by a LIMIT (OFFSET): the run of rows
 * tied on the keys at the end (start) may hold other rows of that tie, so only their key columns are compared
 * (no keys, as for a LIMIT without ORDER BY: only the row count). A column is a float column when either side
 * says so.
 */
export function compareRows(
  actual: ResultRows,
  expected: ResultRows,
  order: boolean | readonly number[],
  cut: RowsCut = NO_CUT,
): string | null {
  const width = actual.names.length;
  if (expected.names.length !== width) return `column count: ${width} vs ${expected.names.length}`;
  const floats = actual.floats.map((f, c) => f || expected.floats[c] === true);
  if (actual.rows.length !== expected.rows.length) {
    return `row count: ${actual.rows.length} vs ${expected.rows.length}\n${show(actual.rows, expected.rows)}`;
  }
  const a = order === false ? sortRows(actual.rows, floats) : actual.rows;
  const b = order === false ? sortRows(expected.rows, floats) : expected.rows;
  /** The first row where `x` and `y` differ, or -1 (`fl`: which of their columns are floats). */
  const differs = (x: Rows, y: Rows, fl = floats) =>
    x.findIndex((row, r) => !row.every((v, c) => sameCell(v, y[r]![c]!, fl[c]!)));
  if (typeof order !== 'object') {
    const r = differs(a, b);
    return r < 0 ? null : `row ${r + 1}: ${JSON.stringify(a[r])} vs ${JSON.stringify(b[r])}\n${show(a, b)}`;
  }
  // Runs of equal sort keys in the expected rows; the actual rows there must have the same keys, in any order.
  const sameKey = (x: Row, y: Row) => order.every((c) => sameCell(x[c]!, y[c]!, floats[c]!));
  for (let start = 0; start < b.length; ) {
    let end = start + 1;
    while (end < b.length && sameKey(b[end]!, b[start]!)) end++;
    const atCut = (cut.limit && end === b.length) || (cut.offset && start === 0);
    const keysOnly = (rows: Rows) => (atCut ? rows.map((row) => order.map((c) => row[c]!)) : rows);
    const keyFloats = atCut ? order.map((c) => floats[c]!) : floats;
    const run = (rows: Rows) => sortRows(keysOnly(rows.slice(start, end)), keyFloats);
    const x = end - start === 1 ? keysOnly(a.slice(start, end)) : run(a);
    const y = end - start === 1 ? keysOnly(b.slice(start, end)) : run(b);
    const r = differs(x, y, keyFloats);
    if (r >= 0) {
      const where = start + r + 1;
      return `row ${where}: ${JSON.stringify(x[r])} vs ${JSON.stringify(y[r])}\n${show(a, b)}`;
    }
    start = end;
  }
  return null;
}

export function sameCell(a: string | null, b: string | null, float: boolean): boolean {
  if (a === null || b === null) return a === b;
  return a === b || (float && closeFloats(a, b));
}

/** True when two float texts are equal within FLOAT_REL_TOLERANCE (NaN equals NaN). */
export function closeFloats(x: string, y: string): boolean {
  const a = Number(x);
  const b = Number(y);
  if (Number.isNaN(a) || Number.isNaN(b)) return x === y;
  if (a === b) return true;
  return Math.abs(a - b) <= FLOAT_REL_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

/** Sorts rows by their text, floats rounded so that values within tolerance sort alike. */
export function sortRows(rows: Rows, floats: readonly boolean[]): Rows {
  const key = (row: (string | null)[]) =>
    row.map((v, c) => (v === null ? '\u0000NULL' : floats[c] ? Number(v).toPrecision(6) : v)).join('\u0001');
  return rows
    .map((row) => [key(row), row] as const)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([, row]) => row);
}

function show(a: Rows, b: Rows): string {
  const rows = (rs: Rows) =>
    rs
      .slice(0, 5)
      .map((r) => `    ${JSON.stringify(r)}`)
      .join('\n');
  return `  first rows:\n${rows(a)}\n  vs:\n${rows(b)}`;
}
