// `lookUpCache`: the results cache as the query service sees it: the request's key, no-cache, a client-chosen key.
import type { ResultsCache } from '../cache/results-cache.js';
import type { ResultFormat } from '../serialize/serializer.js';

/** How a request steers the cache (HTTP: `Cache-Control: no-cache`, `Spice-Cache-Key`). */
export interface CacheDirectives {
  /** Skip the lookup; the result is still stored. */
  readonly noCache?: boolean;
  /** A client-chosen entry name ('' or absent: the key is the request's text). */
  readonly key?: string;
  /** Neither looked up nor stored: the cache is not used at all (the search index's whole-table reads). */
  readonly bypass?: boolean;
}

/** Whether an answer came from the cache, was computed (and stored if it fit), or bypassed the lookup. */
export type CacheStatus = 'HIT' | 'MISS' | 'BYPASS';

/** What the service does with one request's cache decision. */
export type CacheLookup =
  | { readonly kind: 'hit'; readonly body: Uint8Array }
  | {
      readonly kind: 'miss';
      readonly key: string;
      /** The cache's epoch when the query began: a refresh in between keeps the result out of the cache. */
      readonly epoch: number;
      readonly status: 'MISS' | 'BYPASS';
    }
  | { readonly kind: 'invalid'; readonly message: string };

const CUSTOM_KEY_RE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Keys never collide across formats, parameters or SQL text: `<format> NUL q <params JSON> NUL <sql>`, or
 * `<format> NUL k <key>` when the client names the entry itself (then SQL and parameters are not part of the
 * key: the client vouches that equal keys mean equal answers). `noCache` skips the lookup (BYPASS) but the
 * result is still stored. A malformed client key is invalid.
 */
export function lookUpCache(
  cache: ResultsCache,
  format: ResultFormat,
  request: { readonly sql: string; readonly params?: unknown },
  directives: CacheDirectives,
): CacheLookup {
  const custom = directives.key !== undefined && directives.key !== '';
  if (custom && !CUSTOM_KEY_RE.test(directives.key!)) {
    return {
      kind: 'invalid',
      message: 'Invalid Spice-Cache-Key: expected 1 to 128 characters of A-Z, a-z, 0-9, _ and -',
    };
  }
  const key = custom
    ? `${format}\u0000k${directives.key}`
    : `${format}\u0000q${request.params === undefined ? '' : JSON.stringify(request.params)}\u0000${request.sql}`;
  if (directives.noCache === true) return { kind: 'miss', key, epoch: cache.epoch, status: 'BYPASS' };
  const hit = cache.get(key);
  if (hit !== undefined) return { kind: 'hit', body: hit.body };
  return { kind: 'miss', key, epoch: cache.epoch, status: 'MISS' };
}
