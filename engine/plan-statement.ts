// `StatementPlanner`: SQL text to an optimized plan (parse, bind, optimize), through a plan cache. The engine
// plans statements with it (a parallel aggregate's helper threads get plan data, not statements).
import type { Catalog } from './catalog.js';
import { ForbiddenError } from './errors.js';
import { evaluateConstant } from './exec/execute.js';
import { optimize } from './optimize/optimizer.js';
import type { LogicalPlan } from './plan/logical/index.js';
import { type CachedPlan, PlanCache, planKey, recordingCatalog } from './plan-cache.js';
import { type ParsedStatement, parseSql } from './sql/parse.js';
import { type ParamValues, sqlToPlan } from './sql/sql-to-plan.js';
import { writesData } from './sql/writes-data.js';

export interface StatementOptions {
  readonly params?: ParamValues;
  readonly disabledRules?: readonly string[];
  /** False: a statement that writes raises `ForbiddenError` before it is planned (default true). */
  readonly allowWrites?: boolean;
}

export class StatementPlanner {
  readonly #cache: PlanCache | null;

  /** `capacity` 0: no cache. */
  constructor(capacity: number) {
    this.#cache = capacity > 0 ? new PlanCache(capacity) : null;
  }

  get size(): number {
    return this.#cache?.size ?? 0;
  }

  /** Drops every cached plan (their catalog lookups hold providers, and so the providers' memory). */
  clear(): void {
    this.#cache?.clear();
  }

  plan(sql: string, opts: StatementOptions, catalog: Catalog): CachedPlan {
    const cache = this.#cache;
    const key = cache && planKey(sql, opts.params, opts.disabledRules ?? []);
    const hit = key === null ? undefined : cache?.get(key, catalog);
    if (hit) {
      if (!hit.readOnly && opts.allowWrites === false) throw forbidden(hit.plan.kind.replace('_', ' ').toUpperCase());
      return hit;
    }
    const made = makePlan(sql, opts, catalog);
    if (key !== null) cache?.set(key, made);
    return made;
  }
}

/** Parses, binds and optimizes one statement, recording the catalog lookups it made. */
function makePlan(sql: string, opts: StatementOptions, catalog: Catalog): CachedPlan {
  const recorder = recordingCatalog(catalog);
  const seen = recorder.catalog;
  const statement = parseSql(sql);
  const readOnly = !writesData(statement);
  if (!readOnly && opts.allowWrites === false) throw forbidden(statementName(statement));
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
  const written = writtenTable(optimized);
  if (written !== null) tables.add(written.toLowerCase());
  return {
    plan: optimized,
    explain: statement.explain,
    readOnly,
    tables: [...tables].sort(),
    lookups: recorder.lookups,
    tableNames: recorder.tableNames(),
  };
}

/** The table a write or DDL statement changes (its results and plans must be invalidated), else null. */
function writtenTable(plan: LogicalPlan): string | null {
  if (plan.kind === 'insert') return plan.table;
  if (plan.kind === 'create_table') return plan.definition.name.join('.');
  if (plan.kind === 'drop_table') return plan.name.join('.');
  return null;
}

function forbidden(what: string): ForbiddenError {
  return new ForbiddenError(`${what} is not allowed in a read-only SQL context`);
}

/** `INSERT`, `CREATE`, `SELECT INTO`...: the statement's kind as the error names it. */
function statementName(statement: ParsedStatement): string {
  const type = String(statement.ast?.statement ?? statement.ast?.type ?? 'statement');
  return type === 'select' ? 'SELECT INTO' : type.toUpperCase();
}
