// The table-provider registry: a catalog entry's `kind` names the factory that builds its TableProvider.
import type { TableProvider } from '../../engine/index.js';

/**
 * A table as the catalog publishes it: plain, structured-cloneable data (strings, numbers, SharedArrayBuffers),
 * so it crosses to every worker thread. `kind` picks the factory; the other fields are that kind's own.
 */
export interface TableEntry {
  readonly name: string;
  readonly kind: string;
  /** The kind's own fields (`files`, `data`, a metadata location, ...). */
  readonly [field: string]: unknown;
}

/** Builds the provider of one kind of entry, on the thread that queries it (each worker builds its own). */
export interface TableKind<E extends TableEntry = TableEntry> {
  build(entry: E): TableProvider | Promise<TableProvider>;
}

const kinds = new Map<string, TableKind>();

/**
 * Registers the factory for `kind` (S3 Parquet, Iceberg, ... add theirs beside `parquet` and `memory`). A kind
 * registers once: a second registration of the same name is a programming error and throws.
 */
export function registerTableKind<E extends TableEntry>(kind: string, factory: TableKind<E>): void {
  if (kinds.has(kind)) throw new Error(`table kind "${kind}" is registered twice`);
  kinds.set(kind, factory as TableKind);
}

/** The provider for `entry`; throws for a kind nobody registered (the entry's dataset is then broken). */
export async function buildProvider(entry: TableEntry): Promise<TableProvider> {
  const kind = kinds.get(entry.kind);
  if (kind === undefined) throw new Error(`no table provider for kind "${entry.kind}"`);
  return kind.build(entry);
}

/** The registered kinds, sorted (for messages and tests). */
export function tableKinds(): string[] {
  return [...kinds.keys()].sort();
}
