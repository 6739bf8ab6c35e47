// The engine's public API: the only module that catalog/, server/, bench/ and test/slt import.
import { type Batch, makeBatch } from './arrow/batch.js';
import { makeColumn } from './arrow/column.js';
import type { Catalog } from './catalog.js';
import { evaluateConstant, executePlan } from './exec/execute.js';
import { optimize } from './optimize/optimizer.js';
import { explainLines } from './plan/explain.js';
import { type LogicalPlan, planChildren, type Scan } from './plan/logical/index.js';
import type { Schema } from './plan/types.js';
import { type CachedPlan, PLAN_CACHE_ENTRIES, PlanCache, planKey, recordingCatalog } from './plan-cache.js';
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
export { PLAN_CACHE_ENTRIES } from './plan-cache.js';
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
  /** Lower-case names of the tables the statement read (for cache invalidation). */
  readonly tables: readonly string[];
  /** True for queries (SELECT, set operations, EXPLAIN): their answers may be cached; false for writes. */
  readonly readOnly: boolean;
  /** Pulled lazily: nothing runs until the first batch is asked for. */
  readonly batches: AsyncIterable<Batch>;
}

export interface Engine {
  /** Parses, binds, optimizes and starts one statement. Throws `EngineError` subclasses on bad input. */
  execute(sql: string, options?: ExecuteOptions): Promise<QueryResult>;
  /** The optimized plan as EXPLAIN text lines. */
  explain(sql: string, options?: ExecuteOptions): Promise<string[]>;
  /** Plans currently cached (see `createEngine`). */
  readonly cachedPlans: number;
}

export interface EngineOptions {
  readonly catalog: Catalog;
  /** Plans kept for repeated statements; 0 turns the plan cache off. Default `PLAN_CACHE_ENTRIES`. */
  readonly planCacheEntries?: number;
}

/**
 * An engine over `catalog`. Repeated statements (same text, parameter values and disabled rules) reuse their
 * optimized plan, skipping parsing, binding and optimization, for as long as the catalog resolves every
 * table the plan looked up to the same provider (a replaced, added or dropped table re-plans).
 */
export function createEngine(options: EngineOptions): Engine {
  const { catalog } = options;
  const capacity = options.planCacheEntries ?? PLAN_CACHE_ENTRIES;
  const cache = capacity > 0 ? new PlanCache(capacity) : null;
  const plan = (sql: string, opts: ExecuteOptions): CachedPlan => {
    const key = cache && planKey(sql, opts.params, opts.disabledRules ?? []);
    const hit = key === null ? undefined : cache?.get(key, catalog);
    if (hit) return hit;
    const made = makePlan(sql, opts, catalog);
    if (key !== null) cache?.set(key, made);
    return made;
  };
  const explain = async (p: LogicalPlan) => explainLines(p, await scanDetails(p, catalog));
  return {
    async execute(sql, opts = {}) {
      const signal = opts.signal ?? new AbortController().signal;
      const { explain: isExplain, plan: p, tables, readOnly } = plan(sql, opts);
      if (isExplain) return textResult('plan', await explain(p), tables);
      return { ...executePlan(p, { catalog, signal }), tables, readOnly };
    },
    async explain(sql, opts = {}) {
      return explain(plan(sql, opts).plan);
    },
    get cachedPlans() {
      return cache?.size ?? 0;
    },
  };
}

/** Parses, binds and optimizes one statement, recording the catalog lookups it made. */
function makePlan(sql: string, opts: ExecuteOptions, catalog: Catalog): CachedPlan {
  const recorder = recordingCatalog(catalog);
  const seen = recorder.catalog;
  const statement = parseSql(sql);
  const logical = sqlToPlan(statement.ast, { catalog: seen, params: opts.params });
  const optimized = optimize(logical, {
    disabled: opts.disabledRules ?? [],
    evaluateConstant,
    tableRows: (t) => seen.table(t)?.statistics().rowCount ?? null,
    columnDistinct: (t, c) => seen.table(t)?.statistics().distinctCount?.(c) ?? null,
    columnUnique: (t, c) => seen.table(t)?.statistics().unique?.(c) ?? false,
  });
  const tables = new Set<string>();
  for (const [name, provider] of recorder.lookups) if (provider !== undefined) tables.add(name.toLowerCase());
  return {
    plan: optimized,
    explain: statement.explain,
    readOnly: statement.explain || statement.ast?.type === 'select',
    tables: [...tables].sort(),
    lookups: recorder.lookups,
    tableNames: recorder.tableNames(),
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

function textResult(name: string, lines: string[], tables: readonly string[]): QueryResult {
  const schema: Schema = { fields: [{ name, qualifier: null, type: { id: 'utf8' }, nullable: false }] };
  const batch = makeBatch(schema, [makeColumn({ id: 'utf8' }, lines, null, lines.length)], lines.length);
  return {
    schema,
    tables,
    readOnly: true,
    batches: (async function* () {
      yield batch;
    })(),
  };
}
