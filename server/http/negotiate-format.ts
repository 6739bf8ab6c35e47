// `negotiateFormat`: picks the /v1/sql result format from the Accept header (q-values and parameters).
import Negotiator from 'negotiator';
import type { ResultFormat } from '../serialize/serializer.js';

// Offered media types, most preferred first (ties and wildcards go to the earlier one). Text types carry
// the charset we write, so `text/csv; charset=utf-8` matches while `text/csv; charset=latin1` does not.
const OFFERED: readonly (readonly [string, ResultFormat])[] = [
  ['application/json', 'json'],
  ['application/vnd.service.sql.v1+json', 'vnd-json'],
  ['text/csv; charset=utf-8', 'csv'],
  ['text/plain; charset=utf-8', 'table-text'],
  // Beyond the contract: an Arrow IPC stream, and one JSON object per line.
  ['application/vnd.apache.arrow.stream', 'arrow'],
  ['application/x-ndjson', 'ndjson'],
];
const OFFERED_TYPES = OFFERED.map(([type]) => type);

/**
 * The best offered format for `accept` by RFC 9110 rules: q-values, specificity, and parameters that must
 * match. A missing, wildcard (`*` + `/*`), unknown or malformed header gives JSON: never 406, as Spice.
 */
export function negotiateFormat(accept: string): ResultFormat {
  if (accept === '') return 'json';
  let format = seen.get(accept);
  if (format === undefined) {
    const best = new Negotiator({ headers: { accept } }).mediaType(OFFERED_TYPES);
    format = OFFERED.find(([type]) => type === best)?.[1] ?? 'json';
    // Clients send the same few Accept headers over and over: remember them, but never without bound.
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.set(accept, format);
  }
  return format;
}

const SEEN_MAX = 256;
const seen = new Map<string, ResultFormat>();

/** POST /v1/nsql's answers: the /v1/sql formats (vnd under its NSQL names), the SQL text, or server-sent events. */
export type NsqlFormat = ResultFormat | 'sql' | 'event-stream';

const NSQL_OFFERED: readonly (readonly [string, NsqlFormat])[] = [
  ['application/json', 'json'],
  ['application/vnd.service.nsql.v1+json', 'vnd-json'],
  // Spice's name for the same shape.
  ['application/vnd.spiceai.nsql.v1+json', 'vnd-json'],
  ['text/csv; charset=utf-8', 'csv'],
  ['text/plain; charset=utf-8', 'table-text'],
  ['application/sql', 'sql'],
  ['text/event-stream', 'event-stream'],
  ['application/vnd.apache.arrow.stream', 'arrow'],
  ['application/x-ndjson', 'ndjson'],
];
const NSQL_OFFERED_TYPES = NSQL_OFFERED.map(([type]) => type);

/** The best NSQL format for `accept` and the media type chosen (JSON for a missing, wildcard or unknown header). */
export function negotiateNsqlFormat(accept: string): { format: NsqlFormat; mediaType: string } {
  const best = accept === '' ? undefined : new Negotiator({ headers: { accept } }).mediaType(NSQL_OFFERED_TYPES);
  const found = NSQL_OFFERED.find(([type]) => type === best);
  return found === undefined
    ? { format: 'json', mediaType: 'application/json' }
    : { format: found[1], mediaType: found[0] };
}
