// Interfaces between the engine and whatever owns tables: `Catalog` resolves names, `TableProvider` scans.
import type { Batch } from './arrow/batch.js';
import type { Expr } from './plan/expr/index.js';
import type { Schema } from './plan/types.js';

export interface TableStatistics {
  /** Exact row count when known (Parquet footers, loaded tables). */
  readonly rowCount: number | null;
  /**
   * An upper bound on a column's distinct values when one is known cheaply (an integer or date column's
   * min/max range from Parquet statistics or the loaded values); join ordering reads it.
   */
  readonly distinctCount?: (column: string) => number | null;
  /**
   * True when the column is known to hold no NULL and no value twice (a key): every other column of the table is
   * then a function of it, which lets GROUP BY drop the columns that depend on it. False when unknown.
   */
  readonly unique?: (column: string) => boolean;
  /**
   * When the column's values never decrease in the order the table is scanned (integers or dates without NULL: a
   * table loaded in key order), `parts - 1` ascending values that split its rows into `parts` runs of about equal
   * length, for key-range partitions (`ScanRequest.partition.keys`); null otherwise.
   */
  readonly splitPoints?: (column: string, parts: number) => readonly number[] | null;
}

/**
 * What a scan asks of a provider; `columns`, `filters` and `limit` are hints the provider may use to read less,
 * `partition` is not.
 */
export interface ScanRequest {
  /** Names of the columns to produce, in this order. */
  readonly columns: readonly string[];
  /**
   * Conjuncts over the table's unqualified columns. A provider may skip data that cannot match them
   * (row-group pruning) but need not filter rows: the plan keeps a Filter above the scan.
   */
  readonly filters: readonly Expr[];
  /**
   * Conjuncts that tighten while the scan runs (a TopK's K-th key so far, `exec/operators/top-k-bound.ts`): like
   * `filters`, a hint to skip data that cannot match; asked again before each piece of data is read.
   */
  readonly dynamicFilters?: () => readonly Expr[];
  /**
   * Append one float64 column after `columns`: each row's number in the table (from 0, in the table's file and row
   * order), for `TableProvider.fetchRows`. Only asked of providers that have `fetchRows`.
   */
  readonly rowIds?: boolean;
  /** Stop after this many rows (only set when no filter remains above the scan). */
  readonly limit: number | null;
  /**
   * Produce only partition `index` of `count` (a parallel aggregate's share of the rows): the partitions of one
   * table are disjoint and together hold every row. With `next` (a counter in shared memory, starting at 0, one
   * for all the partitions of one run), the shares are not fixed: each scan claims the table's chunks one at a
   * time (`Atomics.add(next, 0, 1)` is the next chunk), so a thread that runs faster or starts earlier reads more.
   * Only asked of providers that return `shared()`.
   */
  readonly partition?: {
    readonly index: number;
    readonly count: number;
    readonly next?: Int32Array;
    /**
     * Instead of a share of the rows in scan order: the rows whose `column` value v has lo <= v < hi (bounds from
     * `splitPoints`, ±Infinity at the ends), so that two tables split on the same key values hold the rows that
     * join each other in the same partition. Only asked for a column `splitPoints` answers for.
     */
    readonly keys?: { readonly column: string; readonly lo: number; readonly hi: number };
  };
  /**
   * Make the batches' arrays in shared memory where the provider can (a table being loaded into memory: the
   * loader then keeps them without copying). Parquet tables carve them out of `SharedSlabs`.
   */
  readonly shared?: boolean;
}

/** A table another thread rebuilds without copying: its columns live in SharedArrayBuffers. */
export interface SharedTable {
  /** Identifies these exact rows (a refreshed table gets a new id), so a thread builds each table once. */
  readonly id: string;
  /** The storage that made `data`; only it reads `data` back (`storage/rebuild-shared-table.ts`): `memory` today. */
  readonly kind: string;
  /** Structured-cloneable and opaque to the engine: handed back to the storage of `kind` in the other thread. */
  readonly data: unknown;
}

export interface TableProvider {
  /** Unqualified fields of the table. */
  readonly schema: Schema;
  /**
   * `parquet` reads files on every query; `memory` serves an accelerated in-memory copy; other kinds (S3 Parquet,
   * Iceberg) come from the catalog's provider registry, so the engine never switches on it.
   */
  readonly kind: string;
  statistics(): TableStatistics;
  /** Batches of the requested columns. Checks `signal` between batches. */
  scan(request: ScanRequest, signal: AbortSignal): AsyncIterable<Batch>;
  /**
   * The `columns` of the rows numbered `rowIds` (as a scan with `ScanRequest.rowIds` numbered them), in that
   * order: a TopK reads its other columns for its last K rows only (late materialisation). A table rewritten since
   * the scan fails the call. Absent: the provider cannot.
   */
  fetchRows?(columns: readonly string[], rowIds: Float64Array, signal: AbortSignal): Promise<Batch>;
  /** One line of detail for EXPLAIN, e.g. `files=2 row_groups=3/8`. */
  explainScan(request: ScanRequest): Promise<string>;
  /** The table as another thread can rebuild it, or null / absent when it cannot (a parallel plan skips it). */
  shared?(): SharedTable | null;
  /**
   * Writes `batches` (rows already in this table's column order and types, NOT NULL checked) as one new version of
   * the table: `append` adds them, `overwrite` replaces every row, `error_if_not_empty` adds them only while the
   * table holds no row (else a user error, nothing written). Resolves to the number of rows committed, once the new
   * version is visible to queries submitted after it. On failure nothing is committed and the files written so far
   * are removed. Absent: the table is read-only.
   */
  write?(batches: AsyncIterable<Batch>, mode: WriteMode, signal: AbortSignal): Promise<number>;
}

export interface Catalog {
  /** Looks a table up by name: exact match first, then a unique case-insensitive match. */
  table(name: string): TableProvider | undefined;
  tableNames(): readonly string[];
  /** DDL (`CREATE SCHEMA`, `CREATE TABLE`, `DROP TABLE`); absent: the catalog has no writable namespace. */
  readonly writes?: CatalogWrites;
}

/** How `TableProvider.write` combines new rows with the table's: the three write modes of the contract (§4.3). */
export type WriteMode = 'append' | 'overwrite' | 'error_if_not_empty';

/**
 * One partition field of `CREATE TABLE ... PARTITIONED BY (...)`: a column and an Iceberg transform in the spec's
 * spelling: `identity`, `year`, `month`, `day`, `hour`, `bucket[N]`, `truncate[W]`.
 */
export interface PartitionField {
  readonly column: string;
  readonly transform: string;
}

/** A table to create: its qualified name as written (`[catalog, schema, table]`), columns and partitioning. */
export interface TableDefinition {
  readonly name: readonly string[];
  /** Columns in order; `nullable: false` for NOT NULL. Qualifiers are ignored. */
  readonly schema: Schema;
  readonly partitionBy: readonly PartitionField[];
}

/**
 * DDL against the catalog. Each call resolves once the change is committed and visible to queries submitted after
 * it; user mistakes (an unknown catalog, a table that exists, a read-only catalog) throw `PlanError`/`ExecError`
 * with a message naming the object; `ForbiddenError` when the catalog is not `read_write`.
 */
export interface CatalogWrites {
  /** `CREATE SCHEMA [IF NOT EXISTS] catalog.schema`. */
  createSchema(name: readonly string[], ifNotExists: boolean): Promise<void>;
  /**
   * `CREATE TABLE [IF NOT EXISTS]`: the new table's provider (whose `write` a CTAS then calls), or null when
   * `ifNotExists` found one of that name (nothing created).
   */
  createTable(definition: TableDefinition, ifNotExists: boolean): Promise<TableProvider | null>;
  /** `DROP TABLE [IF EXISTS]`: the table leaves the catalog (its files stay, as the Iceberg Hadoop catalog's drop without purge). */
  dropTable(name: readonly string[], ifExists: boolean): Promise<void>;
}
