// The engine's public API: the only module that catalog/, server/, bench/ and test/slt import.
import type { Batch } from './arrow/batch.js';
import type { Catalog } from './catalog.js';
import { executePlan } from './exec/execute.js';
import { optimize } from './optimize/optimizer.js';
import { explainText } from './plan/explain.js';
import type { Schema } from './plan/types.js';
import { parseSql } from './sql/parse.js';
import { type ParamValues, sqlToPlan } from './sql/sql-to-plan.js';

export type { Batch } from './arrow/batch.js';
export type { Column, Utf8Bytes } from './arrow/column.js';
export { strings, isValid } from './arrow/column.js';
export { cellText, jsonKind, formatFloat } from './arrow/format.js';
export type { Catalog, TableProvider, ScanRequest, TableStatistics } from './catalog.js';
export * from './errors.js';
export type { DataType, Field, Schema } from './plan/types.js';
export { arrowTypeName, typeName } from './plan/types.js';
export type { ParamValues } from './sql/sql-to-plan.js';
export { createParquetTable, loadParquetTable, writeParquetFile, type ParquetWriteOptions } from './io/parquet/index.js';
export { createMemoryTable, type MemoryTableData } from './exec/memory-table.js';
export { createMapCatalog } from './map-catalog.js';

export interface ExecuteOptions {
  /** `$1…` (array) or `:name` (object) parameter values, as plain JSON values. */
  readonly params?: ParamValues;
  /** Aborting cancels the query between batches. */
  readonly signal?: AbortSignal;
  /** Optimizer rules to skip, by name (e.g. `push-down-filter`). */
  readonly disabledRules?: readonly string[];
}

export interface QueryResult {
  readonly schema: Schema;
  /** Pulled lazily: nothing runs until the first batch is asked for. */
  readonly batches: AsyncIterable<Batch>;
}

export interface Engine {
  /** Parses, binds, optimizes and starts one statement. Throws `EngineError` subclasses on bad input. */
  execute(sql: string, options?: ExecuteOptions): Promise<QueryResult>;
}

export function createEngine(options: { catalog: Catalog }): Engine {
  const { catalog } = options;
  return {
    async execute(sql, opts = {}) {
      const signal = opts.signal ?? new AbortController().signal;
      const statement = parseSql(sql);
      const logical = sqlToPlan(statement.ast, { catalog, params: opts.params });
      const plan = optimize(logical, { disabled: opts.disabledRules ?? [] });
      if (statement.explain) return explainText(await describePlan(plan, catalog));
      return executePlan(plan, { catalog, signal });
    },
  };
}

async function describePlan(plan: Parameters<typeof executePlan>[0], catalog: Catalog) {
  const { explainPlan } = await import('./plan/explain.js');
  return explainPlan(plan, catalog);
}
