// `Column`: one column of a batch in Arrow's layout (typed arrays + validity), read by every kernel.
import { formatInterval, type IntervalFields } from '../plan/interval-text.js';
import type { DataType } from '../plan/types.js';
import { sliceNarrow } from './narrow-values.js';

/** UTF-8 bytes with Arrow offsets: the storage form of strings (shareable across threads). */
export interface Utf8Bytes {
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

/**
 * Values by type:
 * - bool: Uint8Array, one byte (0/1) per row;
 * - int32, date (days since 1970-01-01): Int32Array;
 * - int64, decimal (scaled integer): Float64Array while every value is within ±2^53 (exact), else BigInt64Array;
 * - float64: Float64Array; timestamp: Float64Array of microseconds since the epoch;
 * - utf8: JS strings, or UTF-8 bytes (kept by take/concat, read by the utf8-* kernels), decoded on first use by
 *   `strings()` where JS strings are needed;
 * - interval: JS strings, PostgreSQL's text of each value (`1 year 2 mons`, plan/interval-text.ts);
 * - null: no values (every row is null).
 */
export type ColumnValues = Uint8Array | Int32Array | Float64Array | BigInt64Array | string[] | Utf8Bytes | null;

export interface Column {
  readonly type: DataType;
  readonly length: number;
  readonly values: ColumnValues;
  /** One byte per row, 1 = valid; `null` means no row is null. */
  readonly valid: Uint8Array | null;
}

export const MAX_EXACT = 2 ** 53 - 1;

/**
 * Number arrays known to never decrease (a memory table's chunk loaded in key order marks its columns once; slices
 * inherit the mark). Kept beside the columns rather than on them, so every column keeps one shape.
 */
const sortedValues = new WeakSet<Int32Array | Float64Array>();

/**
 * Marks `values` as never decreasing: only for arrays of integers (int32, int64, dates, decimals held scaled) that
 * are and stay so (table data is never written).
 */
export function markSorted(values: Int32Array | Float64Array): void {
  sortedValues.add(values);
}

/** Whether `values` is marked never decreasing (`markSorted`): integers, its first and last its least and most. */
export function isSortedArray(values: unknown): boolean {
  return (values instanceof Int32Array || values instanceof Float64Array) && sortedValues.has(values);
}

/** Whether the column's values never decrease and no row is NULL; false when unknown. */
export function isSorted(col: Column): boolean {
  const v = col.values;
  return col.valid === null && (v instanceof Int32Array || v instanceof Float64Array) && sortedValues.has(v);
}

/**
 * Slices of fewer rows carry no sorted mark, narrow copy or text codes (`subarrayMarked`, `sliceColumn`): those only
 * speed up loops over many rows, and each is a weak-collection entry per slice. A point lookup slices every column
 * of its chunk to a row or two: the entries were ~3% of an HTTP worker's time, and more in its scavenges.
 */
export const MARKED_SLICE_ROWS = 256;

/**
 * `values.subarray(start, end)`, marked sorted when `values` is, with its narrow copy's rows when it has one (at
 * least MARKED_SLICE_ROWS rows).
 */
export function subarrayMarked<T extends Int32Array | Float64Array>(values: T, start: number, end: number): T {
  const sub = values.subarray(start, end) as T;
  if (end - start < MARKED_SLICE_ROWS) return sub;
  if (sortedValues.has(values)) sortedValues.add(sub);
  sliceNarrow(values, sub, start, end);
  return sub;
}

export function makeColumn(type: DataType, values: ColumnValues, valid: Uint8Array | null, length: number): Column {
  return { type, values, valid, length };
}

/** The typed arrays behind a column: its validity, and its values or its text's offsets and bytes (none for JS arrays). */
export function columnArrays(col: Column): ArrayBufferView[] {
  const out: ArrayBufferView[] = col.valid === null ? [] : [col.valid];
  const v = col.values;
  if (v === null || Array.isArray(v)) return out;
  if (isUtf8Bytes(v)) out.push(v.offsets, v.bytes);
  else out.push(v);
  return out;
}

/**
 * Every distinct ArrayBuffer behind `columns`, to move them with postMessage instead of copying; SharedArrayBuffers
 * are left out (they are shared, not moved).
 */
export function movableBuffers(columns: Iterable<Column>): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of columns) for (const a of columnArrays(c)) if (a.buffer instanceof ArrayBuffer) out.add(a.buffer);
  return [...out];
}

export function isValid(col: Column, i: number): boolean {
  return col.valid === null || col.valid[i] === 1;
}

export function nullCount(col: Column): number {
  if (col.type.id === 'null') return col.length;
  const v = col.valid;
  if (v === null) return 0;
  let n = 0;
  for (let i = 0; i < col.length; i++) n += v[i] === 0 ? 1 : 0;
  return n;
}

const decoded = new WeakMap<Utf8Bytes, string[]>();
const utf8 = new TextDecoder();

/** Whether utf8 values are held as UTF-8 bytes (rather than JS strings). */
export function isUtf8Bytes(v: ColumnValues): v is Utf8Bytes {
  return v !== null && !Array.isArray(v) && 'offsets' in v;
}

/** A utf8 column's bytes, or `null` when it holds JS strings (or no values). */
export function utf8BytesOf(col: Column): Utf8Bytes | null {
  const v = col.values;
  return col.type.id === 'utf8' && isUtf8Bytes(v) ? v : null;
}

/** The column's strings when it holds them or has already decoded them; `null` when that would need a decode. */
export function decodedStrings(col: Column): string[] | null {
  const v = col.values;
  if (Array.isArray(v)) return v;
  return isUtf8Bytes(v) ? (decoded.get(v) ?? null) : null;
}

/** UTF-8 bytes [start, end) as a string. */
export function decodeRange(bytes: Uint8Array, start: number, end: number): string {
  if (end === start) return '';
  return isAscii(bytes, start, end) ? asciiString(bytes, start, end) : utf8.decode(bytes.subarray(start, end));
}

/** The column's strings, decoding UTF-8 bytes once per column (memoized). Null rows hold ''. */
export function strings(col: Column): string[] {
  const v = col.values;
  if (Array.isArray(v)) return v;
  if (!isUtf8Bytes(v)) return new Array<string>(col.length).fill('');
  const b = v;
  let out = decoded.get(b);
  if (out === undefined) {
    out = decodeUtf8(b, col.length);
    decoded.set(b, out);
  }
  return out;
}

function decodeUtf8(b: Utf8Bytes, length: number): string[] {
  const out = new Array<string>(length);
  const { offsets, bytes } = b;
  for (let i = 0; i < length; i++) {
    const start = offsets[i] as number;
    out[i] = decodeRange(bytes, start, offsets[i + 1] as number);
  }
  return out;
}

function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((bytes[i] as number) > 127) return false;
  return true;
}

// ASCII bytes are Latin-1 text too: Node's latin1 slice makes one flat string, 4-5x faster than appending
// String.fromCharCode per byte (which also left cons strings for a regex or hash to flatten) and ~2x TextDecoder.
const latin1Slice = Buffer.prototype.latin1Slice as (this: Uint8Array, start: number, end: number) => string;

function asciiString(bytes: Uint8Array, start: number, end: number): string {
  return latin1Slice.call(bytes, start, end);
}

/** Numeric values as numbers (int32, date, float64, timestamp, and int64/decimal while exact). */
export function isFloatBacked(col: Column): col is Column & { values: Float64Array } {
  return col.values instanceof Float64Array;
}

/** Value i of an int64/decimal column as a number or bigint (scaled for decimals). */
export function exactAt(col: Column, i: number): number | bigint {
  return (col.values as Float64Array | BigInt64Array)[i] as number | bigint;
}

/** Returns int64/decimal values as BigInt64Array (copying when Float64-backed). */
export function toBigInt64(values: Float64Array | BigInt64Array): BigInt64Array {
  if (values instanceof BigInt64Array) return values;
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = BigInt(values[i] as number);
  return out;
}

/** Narrows exact integer values to Float64Array when every value is within ±2^53. */
export function narrowExact(values: BigInt64Array): Float64Array | BigInt64Array {
  const max = BigInt(MAX_EXACT);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as bigint;
    if (v > max || v < -max) return values;
  }
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Number(values[i]);
  return out;
}

/** A column of `length` copies of one value (used for literals and constant folding). */
export function constantColumn(type: DataType, value: unknown, length: number): Column {
  if (value === null || value === undefined || type.id === 'null') {
    return makeColumn(type, emptyValues(type, length), new Uint8Array(length), length);
  }
  switch (type.id) {
    case 'bool':
      return makeColumn(type, new Uint8Array(length).fill(value ? 1 : 0), null, length);
    case 'int32':
    case 'date':
      return makeColumn(type, new Int32Array(length).fill(value as number), null, length);
    case 'utf8':
      return makeColumn(type, new Array<string>(length).fill(value as string), null, length);
    case 'interval':
      return makeColumn(type, new Array<string>(length).fill(formatInterval(value as IntervalFields)), null, length);
    case 'int64':
    case 'decimal':
      if (typeof value === 'bigint') return makeColumn(type, new BigInt64Array(length).fill(value), null, length);
      return makeColumn(type, new Float64Array(length).fill(value as number), null, length);
    default:
      return makeColumn(type, new Float64Array(length).fill(value as number), null, length);
  }
}

/** Zeroed values of the right typed array for a type. */
export function emptyValues(type: DataType, length: number): ColumnValues {
  switch (type.id) {
    case 'null':
      return null;
    case 'bool':
      return new Uint8Array(length);
    case 'int32':
    case 'date':
      return new Int32Array(length);
    case 'utf8':
    case 'interval':
      return new Array<string>(length).fill('');
    default:
      return new Float64Array(length);
  }
}
