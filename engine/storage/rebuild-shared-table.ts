// `rebuildSharedTable`: a `SharedTable` sent to another thread, made a provider again by the storage that made it.
import type { TableProvider } from '../catalog.js';
import { InternalError } from '../errors.js';
import { createMemoryTable, MEMORY_KIND, type MemoryTableData } from './memory/memory-table.js';

/** Each storage kind that shares tables across threads, by `SharedTable.kind`; its data stays opaque elsewhere. */
const KINDS: ReadonlyMap<string, (data: unknown) => TableProvider> = new Map([
  [MEMORY_KIND, (data: unknown) => createMemoryTable(data as MemoryTableData)],
]);

/** The provider over `data` in this thread (no copy: the data's arrays are in shared memory). */
export function rebuildSharedTable(kind: string, data: unknown): TableProvider {
  const rebuild = KINDS.get(kind);
  if (rebuild === undefined) throw new InternalError(`parallel query: tables of kind ${kind} cannot be shared`);
  return rebuild(data);
}
