// A Hadoop-layout warehouse: `<wh>/<schema>/<table>/metadata/vN.metadata.json` + `version-hint.text`, data in `data/`.
import { ObjectNotFoundError, type ObjectStore, PreconditionFailedError } from '../../engine/index.js';
import { parseTableMetadata } from './metadata.js';
import type { TableMetadata } from './spec.js';
import { withTableLock } from './table-lock.js';

/** The marker object CREATE SCHEMA writes: a folder holding it is a schema even before it holds a table. */
export const NAMESPACE_MARKER = '.floe-namespace';

const VERSION_FILE = /^v(\d+)\.metadata\.json$/;
const HINT_FILE = 'version-hint.text';

/** A table's current version as read from its `metadata/` folder. */
export interface CurrentMetadata {
  readonly version: number;
  /** The `vN.metadata.json` it came from (an absolute location, like the table's). */
  readonly metadataLocation: string;
  readonly metadata: TableMetadata;
}

/** `base` and `parts` joined by single slashes (`file:///wh` + `s`, `t` → `file:///wh/s/t`). */
export function joinLocation(base: string, ...parts: string[]): string {
  return [base.replace(/\/+$/, ''), ...parts].join('/');
}

export const metadataFolder = (table: string): string => joinLocation(table, 'metadata');
export const versionFile = (table: string, version: number): string =>
  joinLocation(table, 'metadata', `v${version}.metadata.json`);

/**
 * The table's newest published version, or null when it has none. The hint is where to start, not the answer: a
 * writer that died between publishing `v(N+1)` and rewriting the hint left a newer complete version, which wins.
 * A missing or garbled hint falls back to listing `metadata/`.
 */
export async function readCurrent(store: ObjectStore, table: string): Promise<CurrentMetadata | null> {
  let version = await readHint(store, table);
  if (version !== null) {
    while (await exists(store, versionFile(table, version + 1))) version++;
    if (!(await exists(store, versionFile(table, version)))) version = null;
  }
  version ??= await newestListed(store, table);
  if (version === null) return null;
  const metadataLocation = versionFile(table, version);
  const text = new TextDecoder().decode(await store.read(metadataLocation));
  return { version, metadataLocation, metadata: parseTableMetadata(text, metadataLocation) };
}

async function readHint(store: ObjectStore, table: string): Promise<number | null> {
  try {
    const text = new TextDecoder().decode(await store.read(joinLocation(table, 'metadata', HINT_FILE))).trim();
    // Java writes the bare number; icebird also accepts `vN`.
    const m = /^v?(\d+)$/.exec(text);
    return m ? Number(m[1]) : null;
  } catch (e) {
    if (e instanceof ObjectNotFoundError) return null;
    throw e;
  }
}

async function newestListed(store: ObjectStore, table: string): Promise<number | null> {
  let newest: number | null = null;
  for (const o of await store.list(`${metadataFolder(table)}/v`)) {
    const m = VERSION_FILE.exec(baseName(o.location));
    if (m && (newest === null || Number(m[1]) > newest)) newest = Number(m[1]);
  }
  return newest;
}

export async function exists(store: ObjectStore, location: string): Promise<boolean> {
  try {
    await store.head(location);
    return true;
  } catch (e) {
    if (e instanceof ObjectNotFoundError) return false;
    throw e;
  }
}

const baseName = (location: string) => location.slice(location.lastIndexOf('/') + 1);

/** What a warehouse holds: schemas (sorted) and tables (sorted by schema, then name). */
export interface WarehouseContents {
  readonly schemas: readonly string[];
  readonly tables: readonly { readonly schema: string; readonly table: string; readonly location: string }[];
}

/**
 * Lists the warehouse once: a schema is a folder holding the namespace marker or a table; a table is a folder
 * `<schema>/<table>` whose `metadata/` holds a `vN.metadata.json` or a version hint. Lists every object, data
 * files included (the store has no folder listing).
 */
export async function discover(store: ObjectStore, warehouse: string): Promise<WarehouseContents> {
  const prefix = `${warehouse.replace(/\/+$/, '')}/`;
  const schemas = new Set<string>();
  const tables = new Map<string, { schema: string; table: string; location: string }>();
  for (const o of await store.list(prefix)) {
    const parts = o.location.slice(prefix.length).split('/').map(decodeSegment(warehouse));
    if (parts.length === 2 && parts[1] === NAMESPACE_MARKER) schemas.add(parts[0]!);
    const isMetadata =
      parts.length === 4 && parts[2] === 'metadata' && (VERSION_FILE.test(parts[3]!) || parts[3] === HINT_FILE);
    if (!isMetadata) continue;
    const [schema, table] = parts as [string, string];
    schemas.add(schema);
    tables.set(`${schema}/${table}`, { schema, table, location: joinLocation(warehouse, schema, table) });
  }
  const byName = (a: { schema: string; table: string }, b: { schema: string; table: string }) =>
    a.schema === b.schema ? cmp(a.table, b.table) : cmp(a.schema, b.schema);
  return { schemas: [...schemas].sort(cmp), tables: [...tables.values()].sort(byName) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
// A local store lists `file:` URLs percent-encoded.
const decodeSegment = (warehouse: string) => (s: string) => (warehouse.startsWith('file:') ? decodeURIComponent(s) : s);

/** Writes the schema's marker; false when it was there already (a store without conditional puts says true). */
export async function createNamespace(store: ObjectStore, warehouse: string, schema: string): Promise<boolean> {
  try {
    await store.put(joinLocation(warehouse, schema, NAMESPACE_MARKER), new TextEncoder().encode('{}\n'), {
      ifAbsent: true,
    });
    return true;
  } catch (e) {
    if (e instanceof PreconditionFailedError) return false;
    throw e;
  }
}

/**
 * Removes the table: its version files oldest first, so until the newest goes the table reads as it was (a crash
 * mid-drop leaves it whole) and after it there is none; then the hint, the rest of its metadata, then its data.
 * A Hadoop catalog keeps nothing else about a table. False when none was there.
 */
export function dropTable(store: ObjectStore, table: string): Promise<boolean> {
  // Under the table's lock: a commit of this process never publishes into a table half dropped.
  return withTableLock(table, () => removeTable(store, table));
}

async function removeTable(store: ObjectStore, table: string): Promise<boolean> {
  const objects = (await store.list(`${table.replace(/\/+$/, '')}/`)).map((o) => o.location);
  const metadata = `${metadataFolder(table)}/`;
  const versionOf = (l: string) => Number(VERSION_FILE.exec(baseName(l))?.[1] ?? -1);
  const isMeta = (l: string) => l.startsWith(metadata);
  const versions = objects.filter((l) => isMeta(l) && versionOf(l) >= 0).sort((a, b) => versionOf(a) - versionOf(b));
  if (versions.length === 0) return false;
  const hint = objects.filter((l) => isMeta(l) && baseName(l) === HINT_FILE);
  for (const l of [...versions, ...hint]) await store.delete(l);
  const rest = objects.filter((l) => !hint.includes(l) && !versions.includes(l));
  const ordered = [...rest.filter(isMeta), ...rest.filter((l) => !isMeta(l))];
  await Promise.all(ordered.map((l) => store.delete(l)));
  return true;
}
