// `CatalogSnapshot`: the resolved datasets as plain, structured-cloneable data, and the Catalog built from it.
import {
  type Catalog,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
  ExecError,
  type MemoryTableData,
  type TableProvider,
} from '../engine/index.js';

/** A Parquet-backed table: files are read on every query. */
export interface ParquetTableEntry {
  readonly name: string;
  readonly kind: 'parquet';
  /** Absolute paths, in a stable (sorted) order. */
  readonly files: readonly string[];
}

/** An accelerated table: columns loaded once into SharedArrayBuffer-backed memory. */
export interface MemoryTableEntry {
  readonly name: string;
  readonly kind: 'memory';
  readonly data: MemoryTableData;
}

/**
 * Everything a worker needs to answer queries, safe to pass through `workerData` or `postMessage`:
 * file lists are strings and memory tables hold SharedArrayBuffers, which every thread shares, never copies.
 */
export interface CatalogSnapshot {
  readonly tables: readonly (ParquetTableEntry | MemoryTableEntry)[];
}

/** Builds the engine's Catalog for a snapshot (one per worker thread). Reads Parquet footers lazily or not, as the engine decides. */
export async function catalogFromSnapshot(snapshot: CatalogSnapshot): Promise<Catalog> {
  const tables = new Map<string, TableProvider>();
  const broken = new Map<string, string>();
  for (const entry of snapshot.tables) {
    try {
      const provider =
        entry.kind === 'parquet' ? await createParquetTable([...entry.files]) : createMemoryTable(entry.data);
      tables.set(entry.name, provider);
    } catch (e) {
      // One unreadable dataset (a file deleted after start) must not take the others down with it.
      broken.set(entry.name.toLowerCase(), e instanceof Error ? e.message : String(e));
    }
  }
  const catalog = createMapCatalog(tables);
  if (broken.size === 0) return catalog;
  return {
    tableNames: () =>
      [
        ...catalog.tableNames(),
        ...snapshot.tables.map((t) => t.name).filter((n) => broken.has(n.toLowerCase())),
      ].sort(),
    table(name) {
      const reason = broken.get(name.toLowerCase());
      if (reason !== undefined) throw new ExecError(`dataset "${name}" cannot be read: ${reason}`);
      return catalog.table(name);
    },
  };
}
