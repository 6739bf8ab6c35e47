// The generated-query suite's own small, NULL-heavy tables `g1` and `g2`, written as Parquet (seeded, fixed).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ColumnInput, type DataType, writeParquetFile } from '../../engine/index.js';
import { dayOf, makeRng, type TestData } from '../helpers/gen-data.js';

const INT32: DataType = { id: 'int32' };
const NUM: DataType = { id: 'decimal', precision: 8, scale: 2 };
const UTF8: DataType = { id: 'utf8' };
const DATE: DataType = { id: 'date' };
const BOOL: DataType = { id: 'bool' };

export const G1_ROWS = 40;
export const G2_ROWS = 25;

/** Text values: LIKE metacharacters, case, a quote, the empty string, prefixes of one another. */
export const TEXTS = ['', 'a', 'ab', 'abc', 'B', 'b_c', '%x', 'zz', "O'k", 'a b'] as const;
export const FIRST_DAY = '2020-01-01';

/** Column name -> SQL type family, as the query generator sees the tables (g2 has no `e` or `flag`). */
export const COLUMNS = {
  g1: { id: 'int', a: 'int', b: 'int', c: 'num', s: 'text', d: 'date', e: 'int', flag: 'bool' },
  g2: { id: 'int', a: 'int', b: 'int', c: 'num', s: 'text', d: 'date' },
} as const;

function makeTable(seed: number, rows: number, wide: boolean): ColumnInput[] {
  const rng = makeRng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const maybe = <T>(v: T, pNull: number): T | null => (rng() < pNull ? null : v);
  const first = dayOf(FIRST_DAY);
  const cols: ColumnInput[] = [
    { name: 'id', type: INT32, nullable: false, values: Array.from({ length: rows }, (_, i) => i + 1) },
    { name: 'a', type: INT32, values: Array.from({ length: rows }, () => maybe(int(-3, 6), 0.2)) },
    { name: 'b', type: INT32, values: Array.from({ length: rows }, () => maybe(int(0, 9), 0.4)) },
    // Cents, so every value has scale 2 (what PostgreSQL prints for numeric(8,2)).
    { name: 'c', type: NUM, values: Array.from({ length: rows }, () => maybe(int(-5000, 5000), 0.25)) },
    { name: 's', type: UTF8, values: Array.from({ length: rows }, () => maybe(TEXTS[int(0, TEXTS.length - 1)]!, 0.3)) },
    { name: 'd', type: DATE, values: Array.from({ length: rows }, () => maybe(first + int(0, 60), 0.2)) },
  ];
  if (!wide) return cols;
  return [
    ...cols,
    { name: 'e', type: INT32, values: Array.from({ length: rows }, () => maybe(int(0, 3), 0.8)) },
    { name: 'flag', type: BOOL, values: Array.from({ length: rows }, () => maybe(rng() < 0.5, 0.3)) },
  ];
}

/** Writes g1 and g2 into a fresh temporary folder (one file, one row group each). */
export async function writeGeneratedTables(): Promise<TestData> {
  const dir = await mkdtemp(join(tmpdir(), 'floe-generated-'));
  const tables = new Map<string, string[]>();
  for (const [name, cols] of [
    ['g1', makeTable(7001, G1_ROWS, true)],
    ['g2', makeTable(7002, G2_ROWS, false)],
  ] as const) {
    const path = join(dir, `${name}.parquet`);
    await writeParquetFile(path, cols, { rowGroupRows: 16 });
    tables.set(name, [path]);
  }
  return { dir, tables, remove: () => rm(dir, { recursive: true, force: true }) };
}
