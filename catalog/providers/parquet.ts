// The `parquet` table kind: local Parquet files, read on every query.
import { createParquetTable } from '../../engine/index.js';
import { registerTableKind, type TableEntry } from './registry.js';

/** A Parquet-backed table: files are read on every query. */
export interface ParquetTableEntry extends TableEntry {
  readonly kind: 'parquet';
  /** Absolute paths, in a stable (sorted) order. */
  readonly files: readonly string[];
}

registerTableKind<ParquetTableEntry>('parquet', { build: (entry) => createParquetTable([...entry.files]) });
