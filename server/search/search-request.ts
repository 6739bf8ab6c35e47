// `parseSearchRequest`: POST /v1/search's JSON body (Spice's shape) as a `SearchQuery`, or the 400's message.
import type { SearchHit, SearchQuery } from './search-service.js';

/** Hits per search by default, and at most (the MCP tool's bounds too). */
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 100;

/** Spice's keys floe does not implement: refused by name when given (an empty list or null is accepted). */
const NOT_YET = ['where', 'additional_columns', 'keywords'] as const;
const KNOWN = new Set(['text', 'datasets', 'limit', ...NOT_YET]);

/** `{text, datasets?, limit?}`; `where`, `additional_columns` and `keywords` are not supported yet. */
export function parseSearchRequest(body: string): SearchQuery | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    return `Invalid JSON body: ${(e as Error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'Invalid JSON body: expected an object';
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0)
    return `Unknown field ${unknown.map((k) => `'${k}'`).join(', ')}: expected text, datasets, limit`;
  for (const key of NOT_YET) {
    const v = fields[key];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && v !== '') {
      return `'${key}' is not supported yet: full-text search takes text, datasets and limit`;
    }
  }
  const { text, datasets, limit } = fields;
  if (typeof text !== 'string' || text.trim() === '') return "'text' is required: the words to search for";
  if (datasets !== undefined && datasets !== null) {
    if (!Array.isArray(datasets) || datasets.length === 0 || datasets.some((d) => typeof d !== 'string' || d === '')) {
      return "'datasets' must be a non-empty array of dataset names";
    }
  }
  const n = limit ?? SEARCH_LIMIT_DEFAULT;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > SEARCH_LIMIT_MAX) {
    return `'limit' must be an integer from 1 to ${SEARCH_LIMIT_MAX}`;
  }
  return { text, limit: n, ...(Array.isArray(datasets) ? { datasets: datasets as string[] } : {}) };
}

/** A hit as Spice's /v1/search writes it: `data` holds the row id columns too (no additional columns yet). */
export function searchResultItem(hit: SearchHit): Record<string, unknown> {
  return {
    matches: hit.matches,
    data: hit.primaryKey,
    primary_key: hit.primaryKey,
    score: hit.score,
    dataset: hit.dataset,
  };
}
