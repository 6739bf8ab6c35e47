// The `parquet` table kind: Parquet files (local or on S3), read on every query.
import { createParquetTable, type S3StoreConfig } from '../../engine/index.js';
import { registerTableKind, type TableEntry } from './registry.js';

/** A Parquet-backed table: files are read on every query. */
export interface ParquetTableEntry extends TableEntry {
  readonly kind: 'parquet';
  /** Absolute paths or `s3://` locations, in a stable (sorted) order. */
  readonly files: readonly string[];
  /** How to reach `s3://` files (endpoint, region, credentials): each thread makes its client from it. */
  readonly s3?: S3StoreConfig;
}

registerTableKind<ParquetTableEntry>('parquet', {
  build: (entry) => createParquetTable([...entry.files], entry.s3 === undefined ? {} : { s3: entry.s3 }),
});
