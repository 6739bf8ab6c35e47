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

export interface TestEngines {
  /** `createParquetTable`: files are read on every query. */
  readonly file: Engine;
  /** `loadParquetTable` + `createMemoryTable`: the accelerated path. */
  readonly memory: Engine;
}

export async function createTestEngines(data: TestData): Promise<TestEngines> {
  const fileTables = new Map<string, TableProvider>();
  const memoryTables = new Map<string, TableProvider>();
  for (const [name, paths] of data.tables) {
    fileTables.set(name, await createParquetTable(paths));
    memoryTables.set(name, createMemoryTable(await loadParquetTable(paths)));
  }
  const engine = (tables: Map<string, TableProvider>) =>
    createEngine({ catalog: createMapCatalog(tables) satisfies Catalog });
  return { file: engine(fileTables), memory: engine(memoryTables) };
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
