// The `memory` table kind: an accelerated table whose columns were loaded once into shared memory.
import { createMemoryTable, type MemoryTableData } from '../../engine/index.js';
import { registerTableKind, type TableEntry } from './registry.js';

/** An accelerated table: columns loaded once into SharedArrayBuffer-backed memory, shared by every thread. */
export interface MemoryTableEntry extends TableEntry {
  readonly kind: 'memory';
  readonly data: MemoryTableData;
}

registerTableKind<MemoryTableEntry>('memory', { build: (entry) => createMemoryTable(entry.data) });
