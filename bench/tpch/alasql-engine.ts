// `openAlasql`: alasql behind the TPC-H runner's BenchEngine; the only module that imports alasql.
import alasql from 'alasql';
import { cellText, type Engine, type Schema } from '../../engine/index.js';
import { TPCH_TABLES } from '../data/tpch-gen.js';
import type { ResultRows } from '../lib/result-rows.js';
import type { BenchEngine } from './bench-engines.js';

type Row = Record<string, unknown>;

/**
 * alasql with every TPC-H table as an array of row objects (its own storage), read once through floe (`reader`, an
 * engine over the Parquet files): numbers (integers, decimals, floats) as JS numbers, dates as `YYYY-MM-DD` text, so
 * that they compare as text. Queries run synchronously on this thread and cannot be cancelled: the parent kills the
 * process on a timeout.
 */
export async function openAlasql(reader: Engine): Promise<BenchEngine> {
  const db = new alasql.Database();
  for (const name of TPCH_TABLES) {
    db.exec(`CREATE TABLE ${name}`);
    (db.tables[name] as { data: Row[] }).data = await readRows(reader, `SELECT * FROM ${name}`);
  }
  return {
    dataBytes: null,
    threads: 1,
    async run(sql, collect) {
      const rows = db.exec(sql) as Row[];
      return collect ? { rowCount: rows.length, rows: alasqlRows(rows) } : { rowCount: rows.length };
    },
    close() {},
  };
}

async function readRows(reader: Engine, sql: string): Promise<Row[]> {
  const result = await reader.execute(sql);
  const names = result.schema.fields.map((f) => f.name);
  const numeric = numericColumns(result.schema);
  const rows: Row[] = [];
  for await (const batch of result.batches) {
    for (let i = 0; i < batch.length; i++) {
      const row: Row = {};
      batch.columns.forEach((c, j) => {
        const text = cellText(c, i);
        row[names[j]!] = text === null ? null : numeric[j] ? Number(text) : text;
      });
      rows.push(row);
    }
  }
  return rows;
}

const numericColumns = (schema: Schema) =>
  schema.fields.map((f) => ['int32', 'int64', 'float64', 'decimal'].includes(f.type.id));

/** alasql's row objects as text rows; every number column compares as a float (money is a JS double here). */
export function alasqlRows(rows: readonly Row[]): ResultRows {
  const names = Object.keys(rows[0] ?? {});
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    names,
    floats: names.map((n) => rows.some((r) => typeof r[n] === 'number')),
    rows: rows.map((r) => names.map((n) => text(r[n]))),
  };
}
