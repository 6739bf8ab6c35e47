// `textRows`: a CSV or JSON file's data rows, each cell as text (or null), checked against the table's columns.
import { ExecError } from '../../errors.js';
import type { Schema } from '../../plan/types.js';
import { readCsvRecords } from './csv-records.js';
import { readJsonRecords } from './json-records.js';
import type { TextReadOptions } from './text-options.js';

/** One data row: `cell(i)` is column i's text, null for NULL. */
export interface TextRow {
  readonly line: number;
  cell(column: number): string | null;
}

/**
 * The rows of `location` as cells of `schema`'s columns. CSV: the header (when there is one) must name the columns in
 * order, and each record has one field per column, else an ExecError naming the file and line; an empty field is
 * NULL. JSON: a column is the key of that name; a missing key or null is NULL, a nested object or array is its JSON
 * text, keys that are no column are ignored.
 */
export function textRows(location: string, options: TextReadOptions, schema: Schema): AsyncGenerator<TextRow> {
  return options.format === 'csv' ? csvRows(location, options, schema) : jsonRows(location, options, schema);
}

async function* csvRows(location: string, options: TextReadOptions, schema: Schema): AsyncGenerator<TextRow> {
  const names = schema.fields.map((f) => f.name);
  let header = options.hasHeader;
  for await (const { fields, line } of readCsvRecords(location, options)) {
    if (header) {
      checkHeader(location, fields, names);
      header = false;
      continue;
    }
    if (fields.length !== names.length) throw fieldCount(location, line, names.length, fields.length);
    yield { line, cell: (i) => (fields[i] === '' ? null : (fields[i] as string)) };
  }
}

async function* jsonRows(location: string, options: TextReadOptions, schema: Schema): AsyncGenerator<TextRow> {
  const names = schema.fields.map((f) => f.name);
  for await (const { value, line } of readJsonRecords(location, undefined, options.s3)) {
    yield { line, cell: (i) => jsonText(value[names[i] as string]) };
  }
}

/** A JSON value as the text a column parses: strings as they are, other scalars as written, objects as JSON. */
export function jsonText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A record of the wrong width. */
export function fieldCount(location: string, line: number, expected: number, found: number): ExecError {
  return new ExecError(`${location} line ${line}: expected ${expected} fields, found ${found}`);
}

function checkHeader(location: string, fields: readonly string[], names: readonly string[]): void {
  const same = fields.length === names.length && fields.every((f, i) => headerName(f, i) === names[i]);
  if (!same) {
    throw new ExecError(
      `${location}: its header (${fields.join(', ')}) does not name the table's columns (${names.join(', ')})`,
    );
  }
}

/** A header field as a column name: an empty one is `column_<n>` (1-based), as without a header. */
export function headerName(field: string, index: number): string {
  return field === '' ? `column_${index + 1}` : field;
}
