// The Parquet adapter's public surface (the only home of parquet-wasm and hyparquet).

export type { ArrowColumnSpec as ParquetColumnSpec } from '../../arrow/batch-to-arrow.js';
export { createParquetTable, type ParquetTableOptions } from './parquet-table.js';
export { DEFAULT_ROW_GROUP_ROWS, type ParquetStreamOptions, ParquetStreamWriter } from './stream-writer.js';
export { type ColumnInput, type ParquetWriteOptions, writeParquetFile } from './write.js';
