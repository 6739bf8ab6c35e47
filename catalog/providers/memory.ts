// The `memory` table kind: an accelerated table whose columns were loaded once into shared memory.
import { createMemoryTable, type MemoryTableData } from '../../engine/index.js';
import { registerTableKind, type TableEntry } from './registry.js';

/** An accelerated table: columns loaded once into SharedArrayBuffer-backed memory, shared by every thread. */
export interface MemoryTableEntry extends TableEntry {
  readonly kind: 'memory';
  readonly data: MemoryTableData;
  /** The files the rows were read from (by a refresh's load): an append without time column reads only others. */
  readonly loadedFiles?: readonly LoadedFile[];
}

/** A file as it was when loaded: a later etag says it changed. */
export interface LoadedFile {
  readonly location: string;
  readonly size: number;
  readonly etag: string;
}

registerTableKind<MemoryTableEntry>('memory', { build: (entry) => createMemoryTable(entry.data) });
