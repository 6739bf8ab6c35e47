// Type inference for CSV fields and JSON values: each value's narrowest type, and the type two values share.
import { MAX_EXACT } from '../../arrow/column.js';
import { BOOL, DATE, type DataType, FLOAT64, INT64, NULL, TIMESTAMP, UTF8 } from '../../plan/types.js';
import { parseDate, parseTimestamp } from '../../plan/values.js';

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const BOOL_RE = /^(?:true|false)$/i;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The narrowest type of one CSV field: an integer that fits in 64 bits is BIGINT, another number DOUBLE,
 * `true`/`false` (any case) BOOLEAN, an existing `YYYY-MM-DD` DATE, an ISO timestamp (`T` or space, seconds and
 * up to 6 fraction digits optional, `Z` or an offset, converted to UTC) TIMESTAMP, the empty field NULL, anything
 * else TEXT.
 */
export function inferText(text: string): DataType {
  if (text === '') return NULL;
  if (INT_RE.test(text)) {
    const v = BigInt(text);
    return v <= INT64_MAX && v >= -INT64_MAX - 1n ? INT64 : FLOAT64;
  }
  if (FLOAT_RE.test(text)) return FLOAT64;
  if (BOOL_RE.test(text)) return BOOL;
  return inferTemporal(text) ?? UTF8;
}

/**
 * The narrowest type of one JSON value: null NULL, a boolean BOOLEAN, an integral number within ±2^53 BIGINT,
 * another number DOUBLE (JSON.parse keeps no source text, so `1.0` counts as an integer), a string DATE or
 * TIMESTAMP when it is one (as `inferText`) else TEXT, an object or array TEXT (its JSON text).
 */
export function inferJson(value: unknown): DataType {
  if (value === null || value === undefined) return NULL;
  if (typeof value === 'boolean') return BOOL;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) <= MAX_EXACT ? INT64 : FLOAT64;
  if (typeof value === 'string') return inferTemporal(value) ?? UTF8;
  return UTF8;
}

function inferTemporal(text: string): DataType | null {
  if (DATE_RE.test(text)) return parseDate(text) === null ? null : DATE;
  if (TIMESTAMP_RE.test(text)) return parseTimestamp(text) === null ? null : TIMESTAMP;
  return null;
}

/** The type that holds values of both: NULL gives way to anything, BIGINT widens to DOUBLE, DATE to TIMESTAMP, else TEXT. */
export function unifyTypes(a: DataType, b: DataType): DataType {
  if (a.id === b.id) return a;
  if (a.id === 'null') return b;
  if (b.id === 'null') return a;
  const pair = new Set([a.id, b.id]);
  if (pair.has('int64') && pair.has('float64')) return FLOAT64;
  if (pair.has('date') && pair.has('timestamp')) return TIMESTAMP;
  return UTF8;
}
