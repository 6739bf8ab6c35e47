// `PlanCache`: optimized plans by statement text + parameter values, valid while the catalog resolves the same tables.
import type { Catalog, TableProvider } from './catalog.js';
import type { LogicalPlan } from './plan/logical/index.js';

/** One planned statement and the catalog lookups it depended on. */
export interface CachedPlan {
  readonly plan: LogicalPlan;
  readonly explain: boolean;
  /** A query (SELECT, set operation, EXPLAIN) rather than a statement that writes. */
  readonly readOnly: boolean;
  /** Lower-case names of the tables the statement read. */
  readonly tables: readonly string[];
  /** Every `catalog.table(name)` answer seen while planning (undefined = not found). */
  readonly lookups: ReadonlyMap<string, TableProvider | undefined>;
  /** `catalog.tableNames()` joined, when planning asked for it; null otherwise. */
  readonly tableNames: string | null;
}

/** Entries kept; plans are small, a few KiB each. */
export const PLAN_CACHE_ENTRIES = 512;

/**
 * A bounded LRU of plans. `get` re-checks each lookup against the live catalog, so a table that was
 * replaced, added or dropped since the plan was made is a miss (and the stale entry is dropped). Plans
 * are plain data that execution reads and never mutates, so one plan serves any number of executions.
 * Does not cache failures.
 */
export class PlanCache {
  readonly #entries = new Map<string, CachedPlan>();
  readonly #capacity: number;
  /** The key set or moved last (the Map's last entry while it is in it). */
  #newest: string | null = null;

  constructor(capacity = PLAN_CACHE_ENTRIES) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, catalog: Catalog): CachedPlan | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    if (!isCurrent(hit, catalog)) {
      this.#entries.delete(key);
      return undefined;
    }
    // Moved to the newest place unless it is there already: a delete and a set per hit of the same statement
    // made V8 shrink and regrow the Map's table every few queries (perf, point lookups under load).
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      this.#newest = key;
    }
    return hit;
  }

  set(key: string, plan: CachedPlan): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, plan);
    this.#newest = key;
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = null;
  }
}

function isCurrent(plan: CachedPlan, catalog: Catalog): boolean {
  for (const [name, provider] of plan.lookups) if (catalog.table(name) !== provider) return false;
  return plan.tableNames === null || catalog.tableNames().join('\0') === plan.tableNames;
}

/**
 * Wraps `catalog` to record what planning asked of it (for `CachedPlan.lookups` and `tables`). The
 * recorder is used for one statement's planning only.
 */
export function recordingCatalog(catalog: Catalog): {
  catalog: Catalog;
  lookups: Map<string, TableProvider | undefined>;
  tableNames(): string | null;
} {
  const lookups = new Map<string, TableProvider | undefined>();
  let names: string | null = null;
  return {
    lookups,
    tableNames: () => names,
    catalog: {
      writes: catalog.writes,
      table(name) {
        const provider = catalog.table(name);
        lookups.set(name, provider);
        return provider;
      },
      tableNames() {
        const all = catalog.tableNames();
        names = all.join('\0');
        return all;
      },
    },
  };
}

/** The cache key: text, parameter values (typed by their JSON form) and disabled rules never collide. */
export function planKey(sql: string, params: unknown, disabledRules: readonly string[]): string {
  const p = params === undefined ? '' : JSON.stringify(params, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return `${disabledRules.join(',')}\u0000${p}\u0000${sql}`;
}
