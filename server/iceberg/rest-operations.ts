// The read operations of the Iceberg REST catalog over `RestCatalogSource`s: namespace [catalog, schema], tables.
import type { TableMetadata } from '../../catalog/iceberg/spec.js';
import { noSuchNamespace, noSuchTable } from './rest-answer.js';
import { type PageRequest, pageOf } from './rest-params.js';
import type { RestCatalogSource } from './rest-source.js';

/**
 * The spec's templates of what floe serves (clients compare these strings literally: Java's `Endpoint.check`,
 * PyIceberg's `_check_endpoint`); no write endpoint, so clients refuse writes before sending them.
 */
export const SERVED_ENDPOINTS: readonly string[] = [
  'GET /v1/{prefix}/namespaces',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
];

/** `CatalogConfig`: no `prefix` (clients then call `/v1/namespaces`), no `namespace-separator` (0x1F). */
export function catalogConfig(): object {
  return { defaults: {}, overrides: {}, endpoints: SERVED_ENDPOINTS };
}

/** `ListNamespacesResponse`: catalogs at the top, `[catalog, schema]` under a catalog, none under a schema. */
export async function listNamespaces(
  sources: readonly RestCatalogSource[],
  parent: readonly string[] | null,
  page: PageRequest,
): Promise<object> {
  let namespaces: string[][];
  if (parent === null) namespaces = sources.map((s) => [s.name]);
  else if (parent.length === 1) namespaces = (await schemasOf(sources, parent)).map((s) => [parent[0]!, s]);
  else {
    await requireNamespace(sources, parent);
    namespaces = [];
  }
  const { items, next } = pageOf(namespaces, page);
  return next === undefined ? { namespaces: items } : { namespaces: items, 'next-page-token': next };
}

/** Resolves when `levels` names a catalog or one of its schemas; else NoSuchNamespaceException. */
export async function requireNamespace(
  sources: readonly RestCatalogSource[],
  levels: readonly string[],
): Promise<void> {
  if (levels.length === 1) {
    sourceOf(sources, levels);
    return;
  }
  if (levels.length !== 2 || !(await schemasOf(sources, levels)).includes(levels[1]!)) throw noSuchNamespace(levels);
}

/** `GetNamespaceResponse` (the spec's shape; Spice answers `{namespaces: [ns]}` instead). */
export async function loadNamespace(sources: readonly RestCatalogSource[], levels: readonly string[]): Promise<object> {
  await requireNamespace(sources, levels);
  return { namespace: levels, properties: {} };
}

/** `ListTablesResponse`: tables live at level 2; a catalog (level 1) holds none. */
export async function listTables(
  sources: readonly RestCatalogSource[],
  levels: readonly string[],
  page: PageRequest,
): Promise<object> {
  await requireNamespace(sources, levels);
  const names = levels.length === 1 ? [] : await tablesOf(sources, levels);
  const { items, next } = pageOf(names, page);
  const identifiers = items.map((name) => ({ namespace: levels, name }));
  return next === undefined ? { identifiers } : { identifiers, 'next-page-token': next };
}

/**
 * `LoadTableResult`; with `snapshotsMode` 'refs' only the snapshots a branch or tag points at are kept (the
 * current one too: the implied `main` of tables without `refs`).
 */
export async function loadTable(
  sources: readonly RestCatalogSource[],
  levels: readonly string[],
  table: string,
  snapshotsMode: 'all' | 'refs',
): Promise<object> {
  await requireNamespace(sources, levels);
  if (levels.length !== 2) throw noSuchTable(levels, table);
  const loaded = await sourceOf(sources, levels).loadTable(levels[1]!, table);
  if (loaded === undefined) throw noSuchTable(levels, table);
  const metadata = snapshotsMode === 'refs' ? referencedOnly(loaded.metadata) : loaded.metadata;
  return { 'metadata-location': loaded.metadataLocation, metadata, config: loaded.config ?? {} };
}

/** HEAD table: resolves when the table exists (listed by its schema), else a NoSuch*Exception. */
export async function requireTable(
  sources: readonly RestCatalogSource[],
  levels: readonly string[],
  table: string,
): Promise<void> {
  await requireNamespace(sources, levels);
  if (levels.length !== 2 || !(await tablesOf(sources, levels)).includes(table)) throw noSuchTable(levels, table);
}

function referencedOnly(metadata: TableMetadata): TableMetadata {
  if (metadata.snapshots === undefined) return metadata;
  const kept = new Set(Object.values(metadata.refs ?? {}).map((r) => r['snapshot-id']));
  // v1 tables may have no `refs`: `current-snapshot-id` is then the implied `main` branch.
  const current = metadata['current-snapshot-id'];
  if (current !== undefined && current !== null && current !== -1) kept.add(current);
  return { ...metadata, snapshots: metadata.snapshots.filter((s) => kept.has(s['snapshot-id'])) };
}

function sourceOf(sources: readonly RestCatalogSource[], levels: readonly string[]): RestCatalogSource {
  const source = sources.find((s) => s.name === levels[0]);
  if (source === undefined) throw noSuchNamespace(levels);
  return source;
}

async function schemasOf(sources: readonly RestCatalogSource[], levels: readonly string[]): Promise<readonly string[]> {
  return sourceOf(sources, levels).schemas();
}

async function tablesOf(sources: readonly RestCatalogSource[], levels: readonly string[]): Promise<readonly string[]> {
  const tables = await sourceOf(sources, levels).tables(levels[1]!);
  if (tables === undefined) throw noSuchNamespace(levels);
  return tables;
}
