// The engine's public API: the only module that catalog/, server/, bench/ and test/slt import.
import { type Batch, makeBatch } from './arrow/batch.js';
import { makeColumn } from './arrow/column.js';
import type { Catalog } from './catalog.js';
import { evaluateConstant, executePlan } from './exec/execute.js';
import { optimize } from './optimize/optimizer.js';
import { explainLines } from './plan/explain.js';
import { type LogicalPlan, planChildren, type Scan } from './plan/logical/index.js';
import type { Schema } from './plan/types.js';
import { parseSql } from './sql/parse.js';
import { type ParamValues, sqlToPlan } from './sql/sql-to-plan.js';

export type { Batch } from './arrow/batch.js';
export type { Column, Utf8Bytes } from './arrow/column.js';
export { isValid, strings } from './arrow/column.js';
export { cellText, formatFloat, jsonKind } from './arrow/format.js';
export type { Catalog, ScanRequest, TableProvider, TableStatistics } from './catalog.js';
export * from './errors.js';
export { createMemoryTable, type MemoryTableData } from './exec/memory-table.js';
export {
  type ColumnInput,
  createParquetTable,
  loadParquetTable,
  type ParquetWriteOptions,
  writeParquetFile,
} from './io/parquet/index.js';
export { createMapCatalog } from './map-catalog.js';
export type { DataType, Field, Schema } from './plan/types.js';
export { arrowTypeName, typeName } from './plan/types.js';
export type { ParamValues } from './sql/sql-to-plan.js';

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
  /** The optimized plan as EXPLAIN text lines. */
  explain(sql: string, options?: ExecuteOptions): Promise<string[]>;
}

export function createEngine(options: { catalog: Catalog }): Engine {
  const { catalog } = options;
  const plan = (sql: string, opts: ExecuteOptions) => {
    const statement = parseSql(sql);
    const logical = sqlToPlan(statement.ast, { catalog, params: opts.params });
    return {
      explain: statement.explain,
      plan: optimize(logical, {
        disabled: opts.disabledRules ?? [],
        evaluateConstant,
        tableRows: (t) => catalog.table(t)?.statistics().rowCount ?? null,
        columnDistinct: (t, c) => catalog.table(t)?.statistics().distinctCount?.(c) ?? null,
      }),
    };
  };
  const explain = async (p: LogicalPlan) => explainLines(p, await scanDetails(p, catalog));
  return {
    async execute(sql, opts = {}) {
      const signal = opts.signal ?? new AbortController().signal;
      const { explain: isExplain, plan: p } = plan(sql, opts);
      if (isExplain) return textResult('plan', await explain(p));
      return executePlan(p, { catalog, signal });
    },
    async explain(sql, opts = {}) {
      return explain(plan(sql, opts).plan);
    },
  };
}

/** Provider facts for each scan of the plan (files, row groups kept after pruning). */
async function scanDetails(plan: LogicalPlan, catalog: Catalog): Promise<Map<Scan, string>> {
  const out = new Map<Scan, string>();
  const visit = async (p: LogicalPlan): Promise<void> => {
    if (p.kind === 'scan') {
      const provider = catalog.table(p.table);
      if (provider) {
        const filters = p.filters;
        out.set(p, await provider.explainScan({ columns: p.columns ?? [], filters, limit: p.limit }));
      }
    }
    if (p.kind === 'cte_scan') await visit(p.plan);
    for (const c of planChildren(p)) await visit(c);
  };
  await visit(plan);
  return out;
}

function textResult(name: string, lines: string[]): QueryResult {
  const schema: Schema = { fields: [{ name, qualifier: null, type: { id: 'utf8' }, nullable: false }] };
  const batch = makeBatch(schema, [makeColumn({ id: 'utf8' }, lines, null, lines.length)], lines.length);
  return {
    schema,
    batches: (async function* () {
      yield batch;
    })(),
  };
}
