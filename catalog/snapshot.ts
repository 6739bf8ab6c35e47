// `CatalogSnapshot`: the resolved datasets as plain, structured-cloneable data, and the Catalog built from it.
import { type Catalog, createMapCatalog, ExecError, type TableProvider } from '../engine/index.js';
import './providers/builtin.js';
import { buildProvider, type TableEntry } from './providers/registry.js';

export type { MemoryTableEntry, ParquetTableEntry } from './providers/builtin.js';
export type { TableEntry } from './providers/registry.js';

/**
 * Everything a worker needs to answer queries, safe to pass through `workerData` or `postMessage`:
 * file lists are strings and memory tables hold SharedArrayBuffers, which every thread shares, never copies.
 * Each entry's `kind` names its factory in the provider registry (`providers/registry.ts`).
 */
export interface CatalogSnapshot {
  readonly tables: readonly TableEntry[];
}

/** Builds the engine's Catalog for a snapshot (one per worker thread). Reads Parquet footers lazily or not, as the engine decides. */
export function catalogFromSnapshot(snapshot: CatalogSnapshot): Promise<Catalog> {
  return catalogOf(snapshot.tables, buildProvider);
}

/**
 * The Catalog over `entries`, each provider from `provide` (a versioned catalog passes one that reuses the
 * providers of entries it built before). An entry whose provider fails is broken: its queries raise the reason.
 */
export async function catalogOf(
  entries: readonly TableEntry[],
  provide: (entry: TableEntry) => Promise<TableProvider>,
): Promise<Catalog> {
  const tables = new Map<string, TableProvider>();
  const broken = new Map<string, string>();
  for (const entry of entries) {
    try {
      tables.set(entry.name, await provide(entry));
    } catch (e) {
      // One unreadable dataset (a file deleted after start) must not take the others down with it.
      broken.set(entry.name.toLowerCase(), e instanceof Error ? e.message : String(e));
    }
  }
  const catalog = createMapCatalog(tables);
  if (broken.size === 0) return catalog;
  return {
    tableNames: () =>
      [...catalog.tableNames(), ...entries.map((t) => t.name).filter((n) => broken.has(n.toLowerCase()))].sort(),
    table(name) {
      const reason = broken.get(name.toLowerCase());
      if (reason !== undefined) throw new ExecError(`dataset "${name}" cannot be read: ${reason}`);
      return catalog.table(name);
    },
  };
}
