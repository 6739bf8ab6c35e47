// `handleIcebergRequest`: one Iceberg REST request (method, raw path, raw query) -> a `RestAnswer`; no HTTP server.
import { createHash } from 'node:crypto';
import { logInternalError } from '../pool/error-ref.js';
import {
  badRequest,
  errorAnswer,
  internalError,
  jsonAnswer,
  type RestAnswer,
  RestCatalogError,
} from './rest-answer.js';
import {
  catalogConfig,
  listNamespaces,
  listTables,
  loadNamespace,
  loadTable,
  requireNamespace,
  requireTable,
} from './rest-operations.js';
import { decodeSegment, namespaceLevels, pageRequest } from './rest-params.js';
import type { RestCatalogSource } from './rest-source.js';

/** A request as the HTTP layer copies it out of its server: all the handler reads. */
export interface IcebergRequest {
  /** Lower-case (`get`, `head`, ...). */
  readonly method: string;
  /** The URL path as sent (percent-encoded), without the query. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  /** The `If-None-Match` header ('' when absent). */
  readonly ifNoneMatch: string;
}

/** The path prefixes the same handlers answer under (longest first: `/v1/iceberg/v1/` before `/v1/iceberg/`). */
export const ICEBERG_PREFIXES = ['/v1/iceberg/v1/', '/v1/iceberg/', '/v1/'] as const;

/** What a path names once its prefix is gone; `other` is a path under a prefix that floe does not serve. */
type Resource =
  | { readonly kind: 'config' }
  | { readonly kind: 'namespaces' }
  | { readonly kind: 'namespace'; readonly ns: string }
  | { readonly kind: 'tables'; readonly ns: string }
  | { readonly kind: 'table'; readonly ns: string; readonly table: string }
  | { readonly kind: 'other' };

/** The methods each resource serves (HEAD and GET are reads); POST/DELETE on any resource are spec writes. */
const ALLOW: Readonly<Record<Resource['kind'], string>> = {
  config: 'GET',
  namespaces: 'GET',
  namespace: 'GET, HEAD',
  tables: 'GET',
  table: 'GET, HEAD',
  other: '',
};

const WRITES_VIA_SQL =
  'The floe Iceberg REST catalog is read-only: create, drop and write tables through SQL (CREATE TABLE, INSERT INTO, INSERT OVERWRITE, DROP TABLE)';

/**
 * Answers `request` from `sources` (the first level of a namespace names a source). Reads per the spec; POST
 * and DELETE (the spec's writes: create/drop namespace or table, commit, rename, register, metrics) are 406
 * UnsupportedOperationException; other methods on served paths 405 with `Allow`; unserved paths 404. A source's
 * unexpected failure is logged and answered 500 `Internal Server Error: internal (ref …)`, never with its stack.
 */
export async function handleIcebergRequest(
  request: IcebergRequest,
  sources: readonly RestCatalogSource[],
): Promise<RestAnswer> {
  const head = request.method === 'head';
  try {
    return await answer(request, sources);
  } catch (e) {
    if (e instanceof RestCatalogError) return errorAnswer(e, head);
    const ref = logInternalError(`iceberg ${request.method.toUpperCase()} ${request.path} failed`, e);
    return errorAnswer(internalError(`internal (ref ${ref})`), head);
  }
}

async function answer(request: IcebergRequest, sources: readonly RestCatalogSource[]): Promise<RestAnswer> {
  const resource = resourceOf(request.path);
  const { method } = request;
  if (method === 'post' || method === 'delete') {
    throw new RestCatalogError(406, 'UnsupportedOperationException', WRITES_VIA_SQL);
  }
  if (resource.kind === 'other') throw new RestCatalogError(404, 'NotFoundException', `Not Found: ${request.path}`);
  if (method !== 'get' && !(method === 'head' && ALLOW[resource.kind].includes('HEAD'))) {
    throw new RestCatalogError(405, 'MethodNotAllowedException', 'Method Not Allowed', {
      Allow: ALLOW[resource.kind],
    });
  }
  const query = new URLSearchParams(request.query);
  switch (resource.kind) {
    case 'config':
      return jsonAnswer(200, catalogConfig());
    case 'namespaces': {
      const parent = query.get('parent');
      const levels = parent === null || parent === '' ? null : namespaceLevels(parent);
      return jsonAnswer(200, await listNamespaces(sources, levels, pageOf(query)));
    }
    case 'namespace': {
      const levels = namespaceLevels(resource.ns);
      if (method === 'head') return exists(requireNamespace(sources, levels));
      return jsonAnswer(200, await loadNamespace(sources, levels));
    }
    case 'tables':
      return jsonAnswer(200, await listTables(sources, namespaceLevels(resource.ns), pageOf(query)));
    case 'table': {
      const levels = namespaceLevels(resource.ns);
      if (method === 'head') return exists(requireTable(sources, levels, resource.table));
      const result = await loadTable(sources, levels, resource.table, snapshotsMode(query.get('snapshots')));
      return withEtag(JSON.stringify(result), request.ifNoneMatch);
    }
  }
}

/** The resource `path` names under one of `ICEBERG_PREFIXES` (one trailing slash ignored). */
function resourceOf(path: string): Resource {
  const prefix = ICEBERG_PREFIXES.find((p) => path.startsWith(p));
  if (prefix === undefined) return { kind: 'other' };
  const rest = path.slice(prefix.length).replace(/\/$/, '');
  const parts = rest.split('/').map(decodeSegment);
  const [first, ns, third, table] = parts;
  if (parts.length === 1 && first === 'config') return { kind: 'config' };
  if (first !== 'namespaces' || parts.length > 4) return { kind: 'other' };
  if (ns === undefined) return { kind: 'namespaces' };
  if (third === undefined) return { kind: 'namespace', ns };
  if (third !== 'tables') return { kind: 'other' };
  if (table === undefined) return { kind: 'tables', ns };
  if (table === '') throw badRequest('Invalid table name: empty');
  return { kind: 'table', ns, table };
}

function pageOf(query: URLSearchParams) {
  return pageRequest(query.get('pageToken'), query.get('pageSize'));
}

function snapshotsMode(value: string | null): 'all' | 'refs' {
  if (value === null || value === 'all') return 'all';
  if (value === 'refs') return 'refs';
  throw badRequest(`Invalid snapshots '${value}': expected all or refs`);
}

async function exists(check: Promise<void>): Promise<RestAnswer> {
  await check;
  return { status: 204, headers: {}, body: '' };
}

/** 200 with an ETag over the body, or 304 when `If-None-Match` names it (or is `*`). */
function withEtag(body: string, ifNoneMatch: string): RestAnswer {
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  const tags = ifNoneMatch.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags.includes(etag) || tags.includes('*')) return { status: 304, headers: { ETag: etag }, body: '' };
  return { status: 200, headers: { ETag: etag }, body };
}
