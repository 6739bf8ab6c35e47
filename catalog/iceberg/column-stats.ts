// Per-file column metrics of a data file being written: value/null/NaN counts and lower/upper bounds by field id.
import { type Column, strings, type Utf8Bytes } from '../../engine/index.js';
import type { IcebergValue } from './spec.js';

/** Java's default `truncate(16)` metrics mode: string bounds keep 16 code points (the upper one incremented). */
export const STRING_BOUND_CODE_POINTS = 16;

type Bound = number | bigint | string | boolean;

/** One leaf column's metrics so far. */
class ColumnMetrics {
  values = 0;
  nulls = 0;
  nans = 0;
  min: Bound | null = null;
  max: Bound | null = null;
  constructor(
    readonly fieldId: number,
    readonly icebergType: string,
  ) {}
}

/**
 * Accumulates the metrics of the columns written to one file, in the `IcebergValue` domain: bounds leave NaN out
 * (counted apart for float/double), order -0.0 before 0.0, and compare strings by code point (UTF-8 order).
 */
export class FileMetrics {
  readonly #columns: ColumnMetrics[];

  constructor(fields: readonly { readonly id: number; readonly type: string }[]) {
    this.#columns = fields.map((f) => new ColumnMetrics(f.id, f.type));
  }

  /** Adds `columns` (in the fields' order) of `n` rows. */
  add(columns: readonly Column[], n: number): void {
    for (let i = 0; i < this.#columns.length; i++) addColumn(this.#columns[i]!, columns[i]!, n);
  }

  /** The metrics as a data file's maps (by field id). */
  result(): {
    valueCounts: Record<number, number>;
    nullValueCounts: Record<number, number>;
    nanValueCounts: Record<number, number>;
    lowerBounds: Record<number, IcebergValue>;
    upperBounds: Record<number, IcebergValue>;
  } {
    const out = {
      valueCounts: {},
      nullValueCounts: {},
      nanValueCounts: {},
      lowerBounds: {},
      upperBounds: {},
    } as ReturnType<FileMetrics['result']>;
    for (const m of this.#columns) {
      out.valueCounts[m.fieldId] = m.values;
      out.nullValueCounts[m.fieldId] = m.nulls;
      if (m.icebergType === 'float' || m.icebergType === 'double') out.nanValueCounts[m.fieldId] = m.nans;
      const lower = boundValue(m, m.min, false);
      const upper = boundValue(m, m.max, true);
      if (lower !== null) out.lowerBounds[m.fieldId] = lower;
      if (upper !== null) out.upperBounds[m.fieldId] = upper;
    }
    return out;
  }
}

function addColumn(m: ColumnMetrics, col: Column, n: number): void {
  m.values += n;
  const valid = col.valid;
  const v = col.values;
  if (v === null) {
    m.nulls += n;
    return;
  }
  if (m.icebergType === 'string') {
    addStrings(m, col, n);
    return;
  }
  let { min, max } = m;
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) {
      m.nulls++;
      continue;
    }
    let x = (v as ArrayLike<number | bigint>)[i]!;
    if (m.icebergType === 'boolean') x = x ? 1 : 0;
    if (Number.isNaN(x)) {
      m.nans++;
      continue;
    }
    if (min === null || x < (min as number) || (x === 0 && min === 0 && Object.is(x, -0))) min = x;
    if (max === null || x > (max as number) || (x === 0 && max === 0 && Object.is(max, -0))) max = x;
  }
  m.min = min;
  m.max = max;
}

function addStrings(m: ColumnMetrics, col: Column, n: number): void {
  const v = col.values;
  const valid = col.valid;
  if (v !== null && !Array.isArray(v) && 'offsets' in v) {
    addUtf8(m, v as Utf8Bytes, valid, n);
    return;
  }
  const s = strings(col);
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) m.nulls++;
    else addString(m, s[i]!);
  }
}

/** Any UTF-16 unit at or above U+D800: only then can UTF-16 order differ from code point order. */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

function addString(m: ColumnMetrics, x: string): void {
  if (m.min === null) {
    m.min = m.max = x;
    return;
  }
  // Without high units in x, the first unit where x differs is below U+D800: UTF-16 order is code point order.
  if (!HIGH_UNITS.test(x)) {
    if (x < (m.min as string)) m.min = x;
    else if (x > (m.max as string)) m.max = x;
    return;
  }
  if (compareCodePoints(x, m.min as string) < 0) m.min = x;
  if (compareCodePoints(x, m.max as string) > 0) m.max = x;
}

/** UTF-8 bytes compare in code point order: the batch's least and greatest are found on bytes, decoded once. */
function addUtf8(m: ColumnMetrics, v: Utf8Bytes, valid: Uint8Array | null, n: number): void {
  const { offsets, bytes } = v;
  let lo = -1;
  let hi = -1;
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) {
      m.nulls++;
      continue;
    }
    if (lo < 0) {
      lo = hi = i;
      continue;
    }
    if (compareBytes(bytes, offsets, i, lo) < 0) lo = i;
    else if (compareBytes(bytes, offsets, i, hi) > 0) hi = i;
  }
  if (lo < 0) return;
  const text = (i: number) => UTF8.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!));
  addString(m, text(lo));
  addString(m, text(hi));
}

const UTF8 = new TextDecoder();

function compareBytes(bytes: Uint8Array, offsets: Int32Array, i: number, j: number): number {
  const a = offsets[i]!;
  const b = offsets[j]!;
  const la = offsets[i + 1]! - a;
  const lb = offsets[j + 1]! - b;
  const n = Math.min(la, lb);
  for (let k = 0; k < n; k++) {
    const d = bytes[a + k]! - bytes[b + k]!;
    if (d !== 0) return d;
  }
  return la - lb;
}

/** Code point order (UTF-8's): UTF-16 order except that surrogates sort above U+E000..U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

function fixup(c: number): number {
  if (c < 0xd800) return c;
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** A bound in the `IcebergValue` domain of the column's type; strings truncated (an upper one incremented). */
function boundValue(m: ColumnMetrics, x: Bound | null, upper: boolean): IcebergValue | null {
  if (x === null) return null;
  const t = m.icebergType;
  if (t === 'boolean') return x === 1;
  if (t === 'string') return upper ? truncateUpper(x as string) : truncateLower(x as string);
  if (t === 'long' || t.startsWith('timestamp') || t === 'time' || t.startsWith('decimal'))
    return typeof x === 'bigint' ? x : BigInt(Math.round(x as number));
  if (t === 'float') return Math.fround(x as number);
  return x as number;
}

function truncateLower(s: string): string {
  if (s.length <= STRING_BOUND_CODE_POINTS) return s;
  return Array.from(s).slice(0, STRING_BOUND_CODE_POINTS).join('');
}

/** The shortest ≤16-code-point string at or above every string with `s`'s prefix; null when none exists. */
function truncateUpper(s: string): string | null {
  const cps = Array.from(s);
  if (cps.length <= STRING_BOUND_CODE_POINTS) return s;
  const kept = cps.slice(0, STRING_BOUND_CODE_POINTS);
  for (let i = kept.length - 1; i >= 0; i--) {
    let c = kept[i]!.codePointAt(0)! + 1;
    if (c >= 0xd800 && c < 0xe000) c = 0xe000;
    if (c <= 0x10ffff) return kept.slice(0, i).join('') + String.fromCodePoint(c);
  }
  return null;
}
