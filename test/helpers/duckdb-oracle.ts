// DuckDB as the test oracle: the generated Parquet files as views, results as the canonical text floe produces.
import { DuckDBInstance } from '@duckdb/node-api';
import { duckText } from '../../bench/lib/result-rows.js';
import type { TestData } from './gen-data.js';

export interface Oracle {
  /** Rows as text: decimals exact, dates `YYYY-MM-DD`, timestamps without trailing zeros, booleans `true`/`false`. */
  query(sql: string): Promise<{ types: string[]; rows: (string | null)[][] }>;
  /** Releases the connection (PostgreSQL: and the cluster, when this was its last oracle). */
  close(): void | Promise<void>;
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
