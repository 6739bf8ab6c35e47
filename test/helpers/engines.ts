// Test engines over the generated data: one reads the Parquet files per query, one serves in-memory copies.
import {
  type Catalog,
  cellText,
  createEngine,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
  type DataType,
  type Engine,
  type ExecuteOptions,
  loadParquetTable,
  type TableProvider,
} from '../../engine/index.js';
import type { TestData } from './gen-data.js';
import { MemoryWritableCatalog } from './writable-catalog.js';

export interface TestEngines {
  /** `createParquetTable`: files are read on every query. */
  readonly file: Engine;
  /** `loadParquetTable` + `createMemoryTable`: the accelerated path. */
  readonly memory: Engine;
  /**
   * The memory tables with every eligible aggregate split with a helper thread (`minRows` 1; the helper always
   * runs its partition), when asked for: the partial aggregates, merged, must equal the one-thread answer.
   */
  readonly parallel?: Engine;
}

/**
 * `parallel`: add the `parallel` engine (the differential suites do). `writable`: each engine's catalog also takes
 * DDL and writes, into in-memory tables of its own (`MemoryWritableCatalog`; the slt runner's write records).
 */
export async function createTestEngines(
  data: TestData,
  opts: { parallel?: boolean; writable?: boolean } = {},
): Promise<TestEngines> {
  const fileTables = new Map<string, TableProvider>();
  const memoryTables = new Map<string, TableProvider>();
  for (const [name, paths] of data.tables) {
    fileTables.set(name, await createParquetTable(paths));
    memoryTables.set(name, createMemoryTable(await loadParquetTable(paths)));
  }
  const engine = (tables: Map<string, TableProvider>, threads = 0) =>
    createEngine({
      catalog: (opts.writable
        ? new MemoryWritableCatalog(createMapCatalog(tables))
        : createMapCatalog(tables)) satisfies Catalog,
      parallel: { threads, minRows: 1, takeBack: false },
    });
  const engines = { file: engine(fileTables), memory: engine(memoryTables) };
  return opts.parallel ? { ...engines, parallel: engine(memoryTables, 1) } : engines;
}

export interface ResultRows {
  readonly names: string[];
  readonly types: DataType[];
  /** Canonical cell text (`cellText`), null for NULL. */
  readonly rows: (string | null)[][];
}

/** Runs `sql` to completion and returns every row as canonical text. */
export async function queryRows(engine: Engine, sql: string, options: ExecuteOptions = {}): Promise<ResultRows> {
  const result = await engine.execute(sql, options);
  const rows: (string | null)[][] = [];
  for await (const batch of result.batches) {
    for (let i = 0; i < batch.length; i++) rows.push(batch.columns.map((c) => cellText(c, i)));
  }
  return {
    names: result.schema.fields.map((f) => f.name),
    types: result.schema.fields.map((f) => f.type),
    rows,
  };
}
