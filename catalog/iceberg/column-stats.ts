// Per-file column metrics of a data file being written: value/null/NaN counts and lower/upper bounds by field id.
import { type Column, strings } from '../../engine/index.js';
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
  const s = strings(col);
  const valid = col.valid;
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) {
      m.nulls++;
      continue;
    }
    const x = s[i]!;
    if (m.min === null || compareCodePoints(x, m.min as string) < 0) m.min = x;
    if (m.max === null || compareCodePoints(x, m.max as string) > 0) m.max = x;
  }
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
