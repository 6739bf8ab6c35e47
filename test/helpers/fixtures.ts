// Parquet fixtures the server tests write for themselves (into a temp dir) with the engine's writer.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeParquetFile } from '../../engine/index.js';
import { BOOL, DATE, day, FLOAT64, INT32, MONEY, UTF8 } from './batches.js';

/** A fresh temporary folder for one test file. */
export function makeTempDir(prefix = 'floe-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * `people`: 5 rows with nulls, quotes, commas, a newline, unicode, exact decimals, dates, NaN and
 * Infinity (the same values as `peopleBatch()` in batches.ts).
 */
export async function writePeople(path: string): Promise<string> {
  await writeParquetFile(path, [
    { name: 'id', type: INT32, nullable: false, values: [1, 2, 3, 4, 5] },
    { name: 'name', type: UTF8, values: ['Alice', 'Bob', null, 'Zoë', '日本'] },
    { name: 'note', type: UTF8, values: ['plain', 'has, comma', 'has "quotes"', 'line1\nline2', ''] },
    { name: 'amount', type: MONEY, values: [1250, -305, null, 0, 123456789] },
    {
      name: 'born',
      type: DATE,
      values: [day('1990-01-02'), null, day('2000-02-29'), day('1970-01-01'), day('2024-12-31')],
    },
    { name: 'score', type: FLOAT64, values: [1.5, Number.NaN, null, Number.POSITIVE_INFINITY, -0.25] },
    { name: 'active', type: BOOL, values: [true, false, null, true, false] },
  ]);
  return path;
}

/** `big`: `rows` rows of (id int32 0..rows-1, label utf8 'label-<id>', grp int32 id % 10). */
export async function writeBig(path: string, rows: number): Promise<string> {
  const id = Int32Array.from({ length: rows }, (_, i) => i);
  const label = Array.from({ length: rows }, (_, i) => `label-${i}`);
  const grp = Int32Array.from(id, (i) => i % 10);
  await writeParquetFile(path, [
    { name: 'id', type: INT32, nullable: false, values: id },
    { name: 'label', type: UTF8, nullable: false, values: label },
    { name: 'grp', type: INT32, nullable: false, values: grp },
  ]);
  return path;
}
