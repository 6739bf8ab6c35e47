// `lookUpCache`: the results cache as /v1/sql sees it: request key, Cache-Control / Spice-Cache-Key, response headers.
import type { ResultsCache } from '../cache/results-cache.js';
import type { ResultFormat } from '../serialize/serializer.js';
import type { SqlRequest } from './parse-sql-request.js';

/** Request headers that steer the cache, copied in the route handler. */
export interface CacheRequestHeaders {
  readonly cacheControl: string;
  readonly cacheKey: string;
}

/** What the route does with one request's cache decision. */
export type CacheLookup =
  | { readonly kind: 'hit'; readonly contentType: string; readonly body: Uint8Array; readonly headers: HeaderMap }
  | {
      readonly kind: 'miss';
      readonly key: string;
      /** The cache's epoch when the query began: a refresh in between keeps the result out of the cache. */
      readonly epoch: number;
      /** Headers for the 200 answer: MISS or BYPASS, Vary. */
      readonly headers: HeaderMap;
    }
  | { readonly kind: 'invalid'; readonly message: string };

type HeaderMap = Readonly<Record<string, string>>;

const CUSTOM_KEY_RE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Keys never collide across formats, parameters or SQL text: `<format> NUL q <params JSON> NUL <sql>`, or
 * `<format> NUL k <Spice-Cache-Key>` when the client names the entry itself (then SQL and parameters are not
 * part of the key: the client vouches that equal keys mean equal answers). `Cache-Control: no-cache` skips
 * the lookup (BYPASS) but the result is still stored. A malformed Spice-Cache-Key is a 400.
 */
export function lookUpCache(
  cache: ResultsCache,
  format: ResultFormat,
  request: SqlRequest,
  headers: CacheRequestHeaders,
): CacheLookup {
  const custom = headers.cacheKey !== '';
  if (custom && !CUSTOM_KEY_RE.test(headers.cacheKey)) {
    return {
      kind: 'invalid',
      message: 'Invalid Spice-Cache-Key: expected 1 to 128 characters of A-Z, a-z, 0-9, _ and -',
    };
  }
  const key = custom
    ? `${format}\u0000k${headers.cacheKey}`
    : `${format}\u0000q${request.params === undefined ? '' : JSON.stringify(request.params)}\u0000${request.sql}`;
  const h = custom ? VARY_HEADERS : PLAIN_HEADERS;
  if (isNoCache(headers.cacheControl)) return { kind: 'miss', key, epoch: cache.epoch, headers: h.bypass };
  const hit = cache.get(key);
  if (hit !== undefined) return { kind: 'hit', contentType: hit.contentType, body: hit.body, headers: h.hit };
  return { kind: 'miss', key, epoch: cache.epoch, headers: h.miss };
}

/** The answer headers, made once (a hit allocates none). */
function cacheHeaders(vary: HeaderMap) {
  return {
    bypass: { 'Results-Cache-Status': 'BYPASS', ...vary },
    hit: { 'X-Cache': 'Hit from spiceai', 'Results-Cache-Status': 'HIT', ...vary },
    miss: { 'X-Cache': 'Miss from spiceai', 'Results-Cache-Status': 'MISS', ...vary },
  } as const;
}
const PLAIN_HEADERS = cacheHeaders({});
const VARY_HEADERS = cacheHeaders({ Vary: 'Spice-Cache-Key' });

/** `no-cache` as a Cache-Control directive (case-insensitive, among others, with or without spaces). */
function isNoCache(cacheControl: string): boolean {
  if (cacheControl === '') return false;
  return cacheControl.split(',').some((d) => d.trim().toLowerCase() === 'no-cache');
}
