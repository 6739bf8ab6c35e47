// `inferTextSchema`: a CSV or JSON table's columns and types from its first records, with declared types over them.
import { ExecError } from '../../errors.js';
import { type DataType, field, NULL, type Schema, UTF8 } from '../../plan/types.js';
import { readCsvRecords } from './csv-records.js';
import { inferJson, inferText, unifyTypes } from './infer-types.js';
import { readJsonRecords } from './json-records.js';
import type { TextReadOptions } from './text-options.js';
import { fieldCount, headerName } from './text-rows.js';

/** Column names in order, and the type their sampled values share so far (NULL while every one was null). */
type Sample = Map<string, DataType>;

/**
 * Reads the first `options.inferMaxRecords` records (from the first file on, into the next while there are fewer)
 * and gives each column the type its values share (`unifyTypes`; a column of NULLs only is TEXT). CSV columns are
 * named by the first file's header, or `column_1`..`column_n`; JSON columns are the keys of the sampled objects, in
 * the order they first appear (a key first seen later is not read). Declared columns replace the types of the
 * columns of their names; on a CSV file the name must be a column, on JSON a new name adds a column. Throws an
 * ExecError when a sampled record is malformed, or when no column is found (empty files, nothing declared).
 */
export async function inferTextSchema(paths: readonly string[], options: TextReadOptions): Promise<Schema> {
  const sample: Sample = new Map();
  let left = options.inferMaxRecords;
  for (const path of paths) {
    if (left <= 0) break;
    left -=
      options.format === 'csv'
        ? await sampleCsv(path, options, sample, left)
        : await sampleJson(path, options, sample, left);
  }
  for (const d of options.declared) {
    if (options.format === 'csv' && sample.size > 0 && !sample.has(d.name)) {
      throw new ExecError(
        `declared column "${d.name}" is not a column of ${paths[0]} (${[...sample.keys()].join(', ')})`,
      );
    }
    sample.set(d.name, d.type);
  }
  if (sample.size === 0)
    throw new ExecError(`${paths.join(', ')}: no columns found (empty file); declare the dataset's columns`);
  return { fields: [...sample].map(([name, type]) => field(name, type.id === 'null' ? UTF8 : type)) };
}

/** Adds up to `max` records of `path` to `sample`; returns how many were read. */
async function sampleCsv(path: string, options: TextReadOptions, sample: Sample, max: number): Promise<number> {
  let names: string[] | null = sample.size > 0 ? [...sample.keys()] : null;
  let header = options.hasHeader;
  let read = 0;
  for await (const { fields, line } of readCsvRecords(path, options)) {
    if (header) {
      header = false;
      if (names === null) names = namesOf(path, fields);
      continue;
    }
    if (names === null) names = fields.map((_, i) => `column_${i + 1}`);
    if (fields.length !== names.length) throw fieldCount(path, line, names.length, fields.length);
    names.forEach((n, i) => {
      sample.set(n, unifyTypes(sample.get(n) ?? NULL, inferText(fields[i] as string)));
    });
    if (++read >= max) break;
  }
  // A header-only file still names the columns.
  for (const n of names ?? []) if (!sample.has(n)) sample.set(n, NULL);
  return read;
}

async function sampleJson(path: string, options: TextReadOptions, sample: Sample, max: number): Promise<number> {
  let read = 0;
  for await (const { value } of readJsonRecords(path, undefined, options.s3)) {
    for (const [k, v] of Object.entries(value)) sample.set(k, unifyTypes(sample.get(k) ?? NULL, inferJson(v)));
    if (++read >= max) break;
  }
  return read;
}

function namesOf(path: string, header: readonly string[]): string[] {
  const names = header.map(headerName);
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new ExecError(`${path}: column "${n}" appears twice in the header`);
    seen.add(n);
  }
  return names;
}
