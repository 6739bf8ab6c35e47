// The engines the TPC-H benchmark drives, behind one interface: floe as a query worker runs it, DuckDB, and on request
// nodejs-polars (polars-engine.ts) and alasql (alasql-engine.ts), loaded only when asked for.
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { resolveDatasets } from '../../catalog/datasets.js';
import { catalogFromSnapshot } from '../../catalog/snapshot.js';
import { createEngine, type Engine } from '../../engine/index.js';
import { TPCH_TABLES } from '../data/tpch-gen.js';
import { snapshotBytes } from '../lib/data-bytes.js';
import { duckdbRows, floeRows, type ResultRows } from '../lib/result-rows.js';

import type { EngineName } from './engine-names.js';

/** `files`: every query reads the Parquet files; `memory`: the tables are loaded once (floe: accelerated). */
export type DataMode = 'files' | 'memory';

export interface BenchEngine {
  /** Bytes of the loaded column buffers (floe's accelerated tables); null when the engine does not say. */
  readonly dataBytes: number | null;
  /** Threads a query runs on when the engine picks them itself (polars' pool); undefined when the runner sets them. */
  readonly threads?: number;
  /** Runs `sql` to the last row; returns the rows as text only when `collect` (not timed by callers). */
  run(sql: string, collect: boolean, signal: AbortSignal): Promise<{ rowCount: number; rows?: ResultRows }>;
  close(): void;
}

/** Each table is the folder `<dir>/<table>/` of Parquet files. */
export async function openEngine(name: EngineName, dir: string, mode: DataMode, threads: number): Promise<BenchEngine> {
  switch (name) {
    case 'floe':
      return openFloe(dir, mode);
    case 'duckdb':
      return openDuckDb(dir, mode, threads);
    case 'polars':
      return (await import('./polars-engine.js')).openPolars(dir, mode);
    case 'alasql': {
      if (mode !== 'memory') throw new Error('alasql holds its tables in memory: run it with --mode memory');
      return (await import('./alasql-engine.js')).openAlasql(await openFloeEngine(dir, 'files'));
    }
  }
}

/**
 * floe's engine exactly as a query worker builds it: the catalog resolves the datasets (accelerated ones loaded into
 * SharedArrayBuffers on a helper thread), `catalogFromSnapshot` makes the Catalog, `createEngine` the engine.
 * Queries run on this thread, one at a time, as each runs on one worker.
 */
export async function openFloeEngine(dir: string, mode: DataMode): Promise<Engine> {
  return (await openFloeWithBytes(dir, mode)).engine;
}

async function openFloeWithBytes(dir: string, mode: DataMode): Promise<{ engine: Engine; dataBytes: number }> {
  const specs = TPCH_TABLES.map((name) => ({ name, from: `file:${join(dir, name)}`, accelerated: mode === 'memory' }));
  const snapshot = await resolveDatasets(specs, dir);
  return { engine: createEngine({ catalog: await catalogFromSnapshot(snapshot) }), dataBytes: snapshotBytes(snapshot) };
}

async function openFloe(dir: string, mode: DataMode): Promise<BenchEngine> {
  const { engine, dataBytes } = await openFloeWithBytes(dir, mode);
  return {
    dataBytes: mode === 'memory' ? dataBytes : null,
    async run(sql, collect, signal) {
      const result = await engine.execute(sql, { signal });
      if (collect) {
        const rows = await floeRows(result.schema, result.batches);
        return { rowCount: rows.rows.length, rows };
      }
      let rowCount = 0;
      for await (const batch of result.batches) rowCount += batch.length;
      return { rowCount };
    },
    close() {},
  };
}

/** An in-memory DuckDB with views over the same files (`files`) or tables loaded from them (`memory`). */
async function openDuckDb(dir: string, mode: DataMode, threads: number): Promise<BenchEngine> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const conn = await instance.connect();
  for (const name of TPCH_TABLES) {
    const files = `'${join(dir, name).replaceAll("'", "''")}/*.parquet'`;
    await conn.run(`CREATE ${mode === 'memory' ? 'TABLE' : 'VIEW'} ${name} AS SELECT * FROM read_parquet(${files})`);
  }
  return {
    dataBytes: null,
    async run(sql, collect) {
      // runAndReadAll materialises every chunk natively; converting to JS values is the collect step.
      const reader = await conn.runAndReadAll(sql);
      if (collect) {
        const rows = duckdbRows(reader);
        return { rowCount: rows.rows.length, rows };
      }
      return { rowCount: reader.currentRowCount };
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
