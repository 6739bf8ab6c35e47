// DuckDB as the test oracle: the generated Parquet files as views, results as the canonical text floe produces.
import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampValue,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { TestData } from './gen-data.js';

export interface Oracle {
  /** Rows as text: decimals exact, dates `YYYY-MM-DD`, timestamps without trailing zeros, booleans `true`/`false`. */
  query(sql: string): Promise<{ types: string[]; rows: (string | null)[][] }>;
  close(): void;
}

/** An in-memory DuckDB with one view per generated table, reading the same Parquet files floe reads. */
export async function createDuckDbOracle(data: TestData): Promise<Oracle> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  for (const [name, paths] of data.tables) {
    const list = paths.map((p) => `'${p.replaceAll("'", "''")}'`).join(', ');
    await conn.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet([${list}])`);
  }
  return {
    async query(sql) {
      const reader = await conn.runAndReadAll(sql);
      return {
        types: reader.columnTypes().map((t) => t.toString()),
        rows: reader.getRows().map((row) => row.map(duckText)),
      };
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

function duckText(v: DuckDBValue): string | null {
  if (v === null) return null;
  if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return String(v);
  if (v instanceof DuckDBDecimalValue || v instanceof DuckDBDateValue) return v.toString();
  if (v instanceof DuckDBTimestampValue) return timestampText(v.micros);
  throw new Error(`the oracle has no text form for ${String(v)}`);
}

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` with trailing zeros of the fraction removed, as floe prints timestamps. */
function timestampText(micros: bigint): string {
  const secs = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  const frac = Number(micros - secs * 1_000_000n);
  const base = new Date(Number(secs) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return frac === 0 ? base : `${base}.${String(frac).padStart(6, '0').replace(/0+$/, '')}`;
}
