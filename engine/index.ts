// The engine's public API: the only module that catalog/, server/, bench/ and test/slt import.
import { type Batch, makeBatch } from './arrow/batch.js';
import { makeColumn } from './arrow/column.js';
import type { Catalog } from './catalog.js';
import { limitError } from './errors.js';
import { executePlan } from './exec/execute.js';
import { defaultParallelThreads, sharedExecPool } from './exec/parallel/exec-pool.js';
import { keySplit, type NamedSharedTable, partitionScan, planNodes, sharedTables } from './exec/parallel/fragment.js';
import { hashSplit, probedAggregates } from './exec/parallel/hash-split.js';
import type { ParallelPlanning } from './exec/plan-physical.js';
import { explainLines } from './plan/explain.js';
import { type LogicalPlan, planChildren, type Scan } from './plan/logical/index.js';
import type { Schema } from './plan/types.js';
import { type CachedPlan, PLAN_CACHE_ENTRIES } from './plan-cache.js';
import { StatementPlanner } from './plan-statement.js';
import type { ParamValues } from './sql/sql-to-plan.js';

export type { Batch } from './arrow/batch.js';
export { sliceBatch } from './arrow/batch.js';
export {
  type ArrowColumnSpec,
  arrowEndOfStream,
  arrowSchemaMessage,
  arrowSchemaOf,
  batchToArrowMessage,
} from './arrow/batch-to-arrow.js';
export type { Column, Utf8Bytes } from './arrow/column.js';
export { isValid, makeColumn, strings } from './arrow/column.js';
export { cellText, formatFloat, jsonKind } from './arrow/format.js';
export { takeRows } from './arrow/gathered-column.js';
export type {
  Catalog,
  CatalogWrites,
  PartitionField,
  ScanRequest,
  TableDefinition,
  TableProvider,
  TableStatistics,
  WriteMode,
} from './catalog.js';
export * from './errors.js';
export { collectGarbage } from './exec/parallel/collect-garbage.js';
export { retainSharedTables } from './exec/parallel/exec-pool.js';
export {
  isRemoteLocation,
  type ObjectMeta,
  ObjectNotFoundError,
  type ObjectStore,
  ObjectStoreAccessError,
  objectStoreFor,
  PreconditionFailedError,
  type PutCondition,
  S3ObjectStore,
  type S3StoreConfig,
  s3ReadStats,
} from './io/object-store/index.js';
export type { ColumnStats, RowGroupInfo } from './io/parquet/footer.js';
export {
  type ColumnInput,
  createParquetTable,
  DEFAULT_ROW_GROUP_ROWS,
  type ParquetColumnSpec,
  type ParquetStreamOptions,
  ParquetStreamWriter,
  type ParquetTableOptions,
  type ParquetWriteOptions,
  writeParquetFile,
} from './io/parquet/index.js';
export { mayMatch } from './io/parquet/prune.js';
export {
  createTextTable,
  DEFAULT_INFER_MAX_RECORDS,
  type DeclaredColumn,
  declaredType,
  inferTextSchema,
  type TextFormat,
  type TextReadOptions,
  textReadOptions,
} from './io/text/index.js';
export { createMapCatalog } from './map-catalog.js';
export type { DataType, Field, Schema } from './plan/types.js';
export { arrowTypeName, typeName } from './plan/types.js';
export { PLAN_CACHE_ENTRIES } from './plan-cache.js';
export type { ParamValues } from './sql/sql-to-plan.js';
export { appendTable } from './storage/memory/append-table.js';
export { loadParquetTable, materializeTable } from './storage/memory/load-parquet-table.js';
export { loadTextTable } from './storage/memory/load-text-table.js';
export { createMemoryTable, type MemoryTableData } from './storage/memory/memory-table.js';

export interface ExecuteOptions {
  /** `$1…` (array) or `:name` (object) parameter values, as plain JSON values. */
  readonly params?: ParamValues;
  /** Aborting cancels the query between batches. */
  readonly signal?: AbortSignal;
  /** Optimizer rules to skip, by name (e.g. `push-down-filter`). */
  readonly disabledRules?: readonly string[];
  /**
   * Default true. False: a statement that writes (INSERT, UPDATE, DELETE, CREATE, DROP, SELECT INTO...) raises
   * `ForbiddenError` right after parsing, before it is planned (a read-only API key).
   */
  readonly allowWrites?: boolean;
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
  /**
   * Parallel aggregates: `threads` helper threads (default `FLOE_PARALLEL_THREADS`, else 1 on two cores or more;
   * 0 = off) split an aggregate over an accelerated table of at least `minRows` rows (default
   * `PARALLEL_MIN_ROWS`). `takeBack` (default true): when this thread's partition is done, it runs the ones no
   * helper has started; false makes it wait for the helpers (tests, so that helpers always run partitions).
   */
  readonly parallel?: { readonly threads?: number; readonly minRows?: number; readonly takeBack?: boolean };
}

/** Tables smaller than this are aggregated on one thread: splitting them costs more than it saves. */
export const PARALLEL_MIN_ROWS = 1 << 20;

/**
 * An engine over `catalog`. Repeated statements (same text, parameter values and disabled rules) reuse their
 * optimized plan, skipping parsing, binding and optimization, for as long as the catalog resolves every
 * table the plan looked up to the same provider (a replaced, added or dropped table re-plans).
 */
export function createEngine(options: EngineOptions): Engine {
  const { catalog } = options;
  const planner = new StatementPlanner(options.planCacheEntries ?? PLAN_CACHE_ENTRIES);
  const plan = (sql: string, opts: ExecuteOptions): CachedPlan => planner.plan(sql, opts, catalog);
  const threads = options.parallel?.threads ?? defaultParallelThreads();
  const minRows = options.parallel?.minRows ?? PARALLEL_MIN_ROWS;
  const explain = async ({ plan: p, lookups }: CachedPlan) => {
    const parts = threads + 1;
    const split = threads > 0 && sharedTables(lookups) !== null ? splitScans(p, catalog, minRows, parts) : new Map();
    return explainLines(p, await scanDetails(p, catalog, split));
  };
  return {
    async execute(sql, opts = {}) {
      try {
        const signal = opts.signal ?? new AbortController().signal;
        const planned = plan(sql, opts);
        const { explain: isExplain, plan: p, tables, readOnly } = planned;
        if (isExplain) return textResult('plan', await explain(planned), tables);
        const takeBack = options.parallel?.takeBack ?? true;
        const parallel = threads > 0 ? parallelPlanning(planned, threads, minRows, takeBack) : undefined;
        const { schema, batches } = executePlan(p, { catalog, signal, parallel });
        return { schema, batches: guardStack(batches), tables, readOnly };
      } catch (e) {
        throw limitError(e);
      }
    },
    async explain(sql, opts = {}) {
      try {
        return await explain(plan(sql, opts));
      } catch (e) {
        throw limitError(e);
      }
    },
    get cachedPlans() {
      return planner.size;
    },
  };
}

/** What the physical planner needs to split an aggregate of `planned` across `threads` helper threads. */
function parallelPlanning(planned: CachedPlan, threads: number, minRows: number, takeBack: boolean): ParallelPlanning {
  let tables: readonly NamedSharedTable[] | null | undefined;
  return {
    pool: sharedExecPool(threads),
    minRows,
    takeBack,
    tables: () => {
      if (tables === undefined) tables = sharedTables(planned.lookups);
      return tables;
    },
  };
}

/**
 * The scans whose rows parallel aggregates split, each with how: in scan order (`partitionScan`), by ranges of a
 * key column (`keySplit`) or by the hash of key columns (`hashSplit`).
 */
function splitScans(plan: LogicalPlan, catalog: Catalog, minRows: number, parts: number): Map<Scan, string> {
  const out = new Map<Scan, string>();
  const probed = probedAggregates(plan);
  for (const p of planNodes(plan)) {
    if (p.kind !== 'aggregate') continue;
    const scan = partitionScan(p, catalog, minRows);
    const split = scan === null ? keySplit(p, catalog, minRows) : null;
    const hash = scan === null && split === null && !probed.has(p) ? hashSplit(p, catalog, minRows) : null;
    if (scan !== null) out.set(scan, `partitions=${parts}`);
    else if (hash !== null) out.set(hash.scan, `partitions=${parts} by hash(${hash.columns.join(', ')})`);
    else for (const [s, column] of split?.scans ?? []) out.set(s, `partitions=${parts} by ${column}`);
  }
  return out;
}

/**
 * Provider facts for each scan of the plan (files, row groups kept after pruning), and `partitions=N` on a scan
 * split across N threads (`by column` for a key split).
 */
async function scanDetails(
  plan: LogicalPlan,
  catalog: Catalog,
  split: ReadonlyMap<Scan, string>,
): Promise<Map<Scan, string>> {
  const out = new Map<Scan, string>();
  const visit = async (p: LogicalPlan): Promise<void> => {
    if (p.kind === 'scan') {
      const provider = catalog.table(p.table);
      if (provider) {
        const filters = p.filters;
        const detail = await provider.explainScan({ columns: p.columns ?? [], filters, limit: p.limit });
        const how = split.get(p);
        out.set(p, how === undefined ? detail : `${detail} ${how}`);
      }
    }
    if (p.kind === 'cte_scan') await visit(p.plan);
    if (p.kind === 'recursive_cte') for (const term of [p.anchor, p.recursive]) await visit(term);
    for (const c of planChildren(p)) await visit(c);
  };
  await visit(plan);
  return out;
}

/** The batches, with a stack overflow or a too-long value while running them reported as `limitError` does. */
async function* guardStack(batches: AsyncIterable<Batch>): AsyncIterable<Batch> {
  try {
    yield* batches;
  } catch (e) {
    throw limitError(e);
  }
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
