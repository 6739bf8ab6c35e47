// The Parquet adapter's public surface (the only home of parquet-wasm and hyparquet).
export { createParquetTable, type ParquetTableOptions } from './parquet-table.js';
export { type ColumnInput, type ParquetWriteOptions, writeParquetFile } from './write.js';
