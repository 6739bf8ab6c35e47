// The Iceberg REST parameters: namespaces joined by U+001F (path segment and `parent`), and page tokens.
import { badRequest } from './rest-answer.js';

/** The spec's default namespace separator; floe advertises no other (`namespace-separator` is never sent). */
export const NAMESPACE_SEPARATOR = '\x1f';

/**
 * The levels of a namespace as a path segment or a `parent` value, already percent-decoded (`a%1Fb` arrives as
 * `a\x1fb`). An empty level (`a\x1f`, or an empty segment) is a 400: no namespace has one.
 */
export function namespaceLevels(decoded: string): string[] {
  const levels = decoded.split(NAMESPACE_SEPARATOR);
  if (levels.some((l) => l === '')) {
    throw badRequest(`Invalid namespace '${decoded.replaceAll(NAMESPACE_SEPARATOR, '%1F')}': empty level`);
  }
  return levels;
}

/** One percent-decoded path segment; malformed escapes are a 400. */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`Malformed percent-encoding in path segment '${raw}'`);
  }
}

/** Page size when a client asks for pages (sends `pageToken`) without `pageSize`. */
export const DEFAULT_PAGE_SIZE = 1000;

/** What a list asks for: everything (`token` null), or the page starting at `offset`. */
export interface PageRequest {
  readonly offset: number;
  readonly size: number;
  /** False without `pageToken`: the answer is the whole list and carries no `next-page-token`. */
  readonly paged: boolean;
}

/**
 * `pageToken` and `pageSize` per the spec's `PageToken`: without `pageToken` everything; with it (the first page
 * may send it empty) a page of `pageSize` (an integer >= 1, else 400). Tokens are opaque to clients.
 */
export function pageRequest(pageToken: string | null, pageSize: string | null): PageRequest {
  let size = DEFAULT_PAGE_SIZE;
  if (pageSize !== null) {
    if (!/^\d+$/.test(pageSize) || Number(pageSize) < 1 || !Number.isSafeInteger(Number(pageSize))) {
      throw badRequest(`Invalid pageSize '${pageSize}': expected an integer >= 1`);
    }
    size = Number(pageSize);
  }
  if (pageToken === null) return { offset: 0, size, paged: false };
  return { offset: pageToken === '' ? 0 : tokenOffset(pageToken), size, paged: true };
}

/** `items` as `page` asks, with `next-page-token` (null on the last page) when paged. */
export function pageOf<T>(items: readonly T[], page: PageRequest): { items: readonly T[]; next?: string | null } {
  if (!page.paged) return { items };
  const end = page.offset + page.size;
  return { items: items.slice(page.offset, end), next: end < items.length ? offsetToken(end) : null };
}

const TOKEN_PREFIX = 'floe-page:';

function offsetToken(offset: number): string {
  return Buffer.from(`${TOKEN_PREFIX}${offset}`).toString('base64url');
}

function tokenOffset(token: string): number {
  const text = Buffer.from(token, 'base64url').toString();
  const digits = text.startsWith(TOKEN_PREFIX) ? text.slice(TOKEN_PREFIX.length) : '';
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(Number(digits))) {
    throw badRequest(`Invalid pageToken '${token}'`);
  }
  return Number(digits);
}
