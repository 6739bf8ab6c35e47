// `CatalogSnapshot`: the resolved datasets as plain, structured-cloneable data, and the Catalog built from it.
import {
  type Catalog,
  createMapCatalog,
  createMemoryTable,
  createParquetTable,
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
  for (const entry of snapshot.tables) {
    const provider =
      entry.kind === 'parquet' ? await createParquetTable([...entry.files]) : createMemoryTable(entry.data);
    tables.set(entry.name, provider);
  }
  return createMapCatalog(tables);
}
