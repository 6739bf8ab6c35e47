// Registers the table kinds floe ships with; import it (for its effect) before building providers.
import './iceberg.js';
import './memory.js';
import './parquet.js';
import './text-files.js';
import './unavailable.js';

export type { IcebergTableEntry } from '../iceberg/table-entry.js';
export type { MemoryTableEntry } from './memory.js';
export type { ParquetTableEntry } from './parquet.js';
export type { TextTableEntry } from './text-files.js';
export type { UnavailableTableEntry } from './unavailable.js';
