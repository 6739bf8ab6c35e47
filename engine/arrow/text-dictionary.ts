// Table-wide dictionaries of low-cardinality text columns (TPC-H's p_type, l_shipmode, o_orderpriority): an
// accelerated table keeps each such column's rows as one-byte codes beside their UTF-8 bytes, so a predicate or an
// expression of the column is evaluated once per distinct value and read per row by code. The codes sit beside the
// values (a WeakMap, like the sorted marks in column.ts): every column keeps one shape and the bytes stay readable.
import { type Column, isUtf8Bytes, type Utf8Bytes } from './column.js';

/** At most this many distinct values: codes are one byte. */
export const MAX_DICTIONARY = 256;

/** A column's distinct values, in first-seen order (code k is `values` row k). */
export interface TextDictionary {
  readonly values: Utf8Bytes;
  readonly size: number;
}

/** Rows as codes into `dictionary`: row i of the column holds `dictionary` value `codes[i]`. */
export interface CodedText {
  readonly dictionary: TextDictionary;
  readonly codes: Uint8Array;
}

const coded = new WeakMap<Utf8Bytes, CodedText>();

/** Records that the rows of `values` are `codes` into `dictionary` (row i: `codes[i]`; NULL rows hold any code). */
export function attachCodes(values: Utf8Bytes, dictionary: TextDictionary, codes: Uint8Array): void {
  coded.set(values, { dictionary, codes });
}

/**
 * The codes of a column whose values are UTF-8 bytes with codes attached (an accelerated table's chunk, a slice of
 * one), else null. Reads `col.values`: a lazily copied column (gathered, concatenated) is asked through
 * `textCodesOf` in gathered-column.ts instead, which does not copy it.
 */
export function attachedCodes(col: Column): CodedText | null {
  const v = col.values;
  return col.type.id === 'utf8' && isUtf8Bytes(v) ? (coded.get(v) ?? null) : null;
}

/** The codes of `values` (when attached) carried over to `slice`, its rows [start, end). */
export function sliceCodes(values: Utf8Bytes, slice: Utf8Bytes, start: number, end: number): void {
  const c = coded.get(values);
  if (c !== undefined) coded.set(slice, { dictionary: c.dictionary, codes: c.codes.subarray(start, end) });
}

/** The dictionary's values as a column of `size` rows (no NULL). */
export function dictionaryColumn(d: TextDictionary): Column {
  return { type: { id: 'utf8' }, values: d.values, valid: null, length: d.size };
}

/** Slots of the open-addressing table that finds a value's code (four times the largest dictionary). */
const SLOTS = 1024;

/** Entries of `Distinct.recent`. */
const RECENT = 1 << 14;

/** The distinct values found so far: value k is `bytes[starts[k], starts[k + 1])`, its slot found by hash. */
class Distinct {
  readonly slots = new Int16Array(SLOTS).fill(-1);
  /** The code of each value of up to two bytes (`codeRows`), -1 until seen. */
  readonly short = new Int16Array(257 + 65536).fill(-1);
  /** The last code seen per key of `codeRows` (length, first and last bytes). */
  readonly recent = new Int16Array(RECENT).fill(-1);
  readonly starts: Int32Array;
  bytes = new Uint8Array(1024);
  /** `bytes` as a DataView, for comparing four bytes at a time. */
  view = new DataView(this.bytes.buffer);
  size = 0;
  constructor(readonly maxSize: number) {
    this.starts = new Int32Array(maxSize + 1);
  }

  /** The code of bytes [start, start + length) of `src`, added when new; -1 when that would exceed `maxSize`. */
  code(src: Uint8Array, start: number, length: number): number {
    let h = 0x811c9dc5 ^ length;
    for (let c = 0; c < length; c++) h = Math.imul(h ^ src[start + c]!, 0x01000193);
    let slot = (h ^ (h >>> 15)) & (SLOTS - 1);
    const { slots, starts } = this;
    for (;;) {
      const k = slots[slot]!;
      if (k < 0) break;
      const at = starts[k]!;
      if (starts[k + 1]! - at === length && equalBytes(src, start, this.bytes, at, length)) return k;
      slot = (slot + 1) & (SLOTS - 1);
    }
    if (this.size === this.maxSize) return -1;
    const code = this.size++;
    slots[slot] = code;
    const at = starts[code]!;
    if (at + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, at + length));
      grown.set(this.bytes);
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    this.bytes.set(src.subarray(start, start + length), at);
    starts[code + 1] = at + length;
    return code;
  }
}

/**
 * One dictionary for the rows of `parts` (text columns of one table, as UTF-8 bytes) and each part's codes, or
 * null when a part is not UTF-8 bytes or there are more than `maxSize` distinct values (found out early on
 * high-cardinality columns: they stop at the (maxSize + 1)-th distinct value). NULL rows are coded by their bytes.
 * `alloc` makes the arrays kept (SharedArrayBuffer-backed for a loaded table).
 */
export function encodeDictionary(
  parts: readonly Column[],
  maxSize = MAX_DICTIONARY,
  alloc: (n: number) => Uint8Array = (n) => new Uint8Array(n),
): { dictionary: TextDictionary; codes: Uint8Array[] } | null {
  const distinct = new Distinct(maxSize);
  const codes: Uint8Array[] = [];
  for (const part of parts) {
    const v = part.values;
    if (part.type.id !== 'utf8' || !isUtf8Bytes(v)) return null;
    const out = alloc(part.length);
    if (!codeRows(v.offsets, v.bytes, part.length, out, distinct)) return null;
    codes.push(out);
  }
  const { size, starts, bytes } = distinct;
  const end = starts[size]!;
  const kept = alloc(end);
  kept.set(bytes.subarray(0, end));
  return { dictionary: { values: { offsets: starts.slice(0, size + 1), bytes: kept }, size }, codes };
}

/** Codes of rows [0, n) into `out`; false when there are too many distinct values. */
function codeRows(offsets: Int32Array, src: Uint8Array, n: number, out: Uint8Array, distinct: Distinct): boolean {
  // A value's code is first looked up by its length and first and last bytes (a direct table: one compare of the
  // bytes confirms it), and hashed only when that entry holds another value.
  const seen = distinct.recent;
  const { starts } = distinct;
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const short = distinct.short;
  for (let i = 0; i < n; i++) {
    const start = offsets[i]!;
    const length = offsets[i + 1]! - start;
    if (length <= 2) {
      // Flags and codes of up to two bytes index a direct table (no compare): '' 0, b 1 + b, b0 b1 257 + b0 b1.
      const slot = length === 0 ? 0 : length === 1 ? 1 + src[start]! : 257 + ((src[start]! << 8) | src[start + 1]!);
      let code = short[slot]!;
      if (code < 0) {
        code = distinct.code(src, start, length);
        if (code < 0) return false;
        short[slot] = code;
      }
      out[i] = code;
      continue;
    }
    const key = ((length & 15) | (src[start]! << 4) | ((src[start + length - 1]! & 3) << 12)) & (RECENT - 1);
    let code = seen[key]!;
    if (
      code < 0 ||
      starts[code + 1]! - starts[code]! !== length ||
      !equalWords(view, start, distinct.view, starts[code]!, length)
    ) {
      code = distinct.code(src, start, length);
      if (code < 0) return false;
      seen[key] = code;
    }
    out[i] = code;
  }
  return true;
}

/** Whether bytes [at, at + length) of `a` equal bytes [bt, bt + length) of `b`, four at a time (~2x bytewise). */
function equalWords(a: DataView, at: number, b: DataView, bt: number, length: number): boolean {
  let c = 0;
  for (; c + 4 <= length; c += 4) if (a.getInt32(at + c) !== b.getInt32(bt + c)) return false;
  for (; c < length; c++) if (a.getUint8(at + c) !== b.getUint8(bt + c)) return false;
  return true;
}

function equalBytes(a: Uint8Array, at: number, b: Uint8Array, bt: number, length: number): boolean {
  for (let c = 0; c < length; c++) if (a[at + c] !== b[bt + c]) return false;
  return true;
}
