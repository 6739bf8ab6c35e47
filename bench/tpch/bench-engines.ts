// The engines the TPC-H and ClickBench benchmarks drive, behind one interface: floe as a query worker runs it, DuckDB,
// and on request nodejs-polars (polars-engine.ts) and alasql (alasql-engine.ts), loaded only when asked for.
import { availableParallelism } from 'node:os';
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
  /** Threads a query may run on, as the engine reports them (floe: its query thread and helpers, DuckDB its
   * `threads` setting, polars its pool); undefined when the engine does not say (alasql: one). */
  readonly threads?: number;
  /** Runs `sql` to the last row; returns the rows as text only when `collect` (not timed by callers). */
  run(sql: string, collect: boolean, signal: AbortSignal): Promise<{ rowCount: number; rows?: ResultRows }>;
  close(): void;
}

/** Which tables to open and how (defaults: TPC-H's eight tables; floe with its plan cache). */
export interface OpenOptions {
  /** Each is the folder `<dir>/<table>/` of Parquet files. */
  readonly tables?: readonly string[];
  /** False runs floe without its plan cache (`planCacheEntries: 0`), planning every statement as DuckDB does. */
  readonly planCache?: boolean;
}

/** Each table is the folder `<dir>/<table>/` of Parquet files. */
export async function openEngine(
  name: EngineName,
  dir: string,
  mode: DataMode,
  threads: number,
  options: OpenOptions = {},
): Promise<BenchEngine> {
  const tables = options.tables ?? TPCH_TABLES;
  switch (name) {
    case 'floe':
      return openFloe(dir, mode, tables, options.planCache ?? true);
    case 'duckdb':
      return openDuckDb(dir, mode, threads, tables);
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
export async function openFloeEngine(
  dir: string,
  mode: DataMode,
  tables: readonly string[] = TPCH_TABLES,
  planCache = true,
): Promise<Engine> {
  return (await openFloeWithBytes(dir, mode, tables, planCache)).engine;
}

async function openFloeWithBytes(
  dir: string,
  mode: DataMode,
  tables: readonly string[],
  planCache: boolean,
): Promise<{ engine: Engine; dataBytes: number }> {
  const specs = tables.map((name) => ({ name, from: `file:${join(dir, name)}`, accelerated: mode === 'memory' }));
  const snapshot = await resolveDatasets(specs, dir);
  const catalog = await catalogFromSnapshot(snapshot);
  const engine = createEngine({ catalog, ...(planCache ? {} : { planCacheEntries: 0 }) });
  return { engine, dataBytes: snapshotBytes(snapshot) };
}

/**
 * The threads a floe query may use: its own, plus the parallel-aggregate helpers over accelerated tables
 * (`memory`; `FLOE_PARALLEL_THREADS`, else one on two cores or more) or the Parquet decode pool (`files`;
 * `FLOE_DECODE_THREADS`, else one per core), by the rules of engine/exec/parallel/exec-pool.ts and
 * engine/io/parquet/decode-pool.ts (not exported by the engine's index).
 */
export function floeThreads(mode: DataMode, env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()) {
  const setting = (value: string | undefined, fallback: number) => {
    const n = value === undefined || value === '' ? fallback : Number(value);
    return Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  const helpers =
    mode === 'memory' ? setting(env.FLOE_PARALLEL_THREADS, cores > 1 ? 1 : 0) : setting(env.FLOE_DECODE_THREADS, cores);
  return 1 + helpers;
}

async function openFloe(
  dir: string,
  mode: DataMode,
  tables: readonly string[],
  planCache: boolean,
): Promise<BenchEngine> {
  const { engine, dataBytes } = await openFloeWithBytes(dir, mode, tables, planCache);
  return {
    dataBytes: mode === 'memory' ? dataBytes : null,
    threads: floeThreads(mode),
    async run(sql, collect, signal) {
      const result = await engine.execute(sql, { signal });
      // Without its plan cache floe must plan each run: a cached plan would make the figures of that mode wrong.
      if (!planCache && engine.cachedPlans !== 0)
        throw new Error(`the plan cache is off but holds ${engine.cachedPlans} plans`);
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
async function openDuckDb(
  dir: string,
  mode: DataMode,
  threads: number,
  tables: readonly string[],
): Promise<BenchEngine> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const conn = await instance.connect();
  for (const name of tables) {
    const files = `'${join(dir, name).replaceAll("'", "''")}/*.parquet'`;
    await conn.run(`CREATE ${mode === 'memory' ? 'TABLE' : 'VIEW'} ${name} AS SELECT * FROM read_parquet(${files})`);
  }
  // The threads DuckDB will really use, as it says (not the number asked for).
  const setting = (await conn.runAndReadAll("SELECT current_setting('threads')")).getRowsJS()[0]![0];
  return {
    dataBytes: null,
    threads: Number(setting),
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
