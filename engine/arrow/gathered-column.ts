// `GatheredColumn`: rows of a column picked by index, copied on the first read of its values or validity (late
// materialisation: a join's or filter's output column that no operator above reads is never copied, and picking
// rows of a GatheredColumn again composes the indices instead of copying twice).

import type { DataType } from '../plan/types.js';
import type { Batch } from './batch.js';
import type { Column, ColumnValues } from './column.js';
import { monomorphicCopy } from './kernels/monomorphic.js';
import { concatColumns, take } from './kernels/take.js';
import { takeOrNull } from './kernels/take-or-null.js';
import { narrowOfFloat64 } from './narrow-values.js';
import { attachCodes, attachedCodes, type CodedText, type TextDictionary } from './text-dictionary.js';

class GatheredColumn implements Column {
  readonly type: DataType;
  readonly length: number;
  /** Never itself a GatheredColumn. */
  readonly source: Column;
  readonly indices: Int32Array;
  /** Whether an index may be -1 (a NULL row: outer join padding). */
  readonly padded: boolean;
  #taken: Column | null = null;

  constructor(source: Column, indices: Int32Array, n: number, padded: boolean) {
    this.type = source.type;
    this.length = n;
    this.source = source;
    this.indices = indices;
    this.padded = padded;
  }

  get values(): ColumnValues {
    return this.#gathered().values;
  }

  get valid(): Uint8Array | null {
    // Rows of a column without NULLs have none either: asking must not copy the values.
    if (!this.padded && this.source.valid === null) return null;
    return this.#gathered().valid;
  }

  #codes: CodedText | null | undefined;

  /** The source's codes at this column's rows (see `textCodesOf`); none when padded. */
  codes(): CodedText | null {
    if (this.#codes !== undefined) return this.#codes;
    const from = this.padded ? null : textCodesOf(this.source);
    if (from === null) this.#codes = null;
    else {
      const codes = new Uint8Array(this.length);
      const src = from.codes;
      const idx = this.indices;
      for (let i = 0; i < codes.length; i++) codes[i] = src[idx[i]!]!;
      this.#codes = { dictionary: from.dictionary, codes };
    }
    return this.#codes;
  }

  #gathered(): Column {
    this.#taken ??= this.padded
      ? takeOrNull(this.source, this.indices, this.length)
      : take(this.source, this.indices, this.length);
    return this.#taken;
  }
}

/**
 * Rows `indices[0..n)` of each column (`padded`: index -1 is a NULL row), each copied only when first read.
 * Columns that are themselves gathered compose their indices with `indices`, once per distinct index array.
 * `indices` must not change afterwards.
 */
export function gatherColumns(cols: readonly Column[], indices: Int32Array, n: number, padded: boolean): Column[] {
  const composed = new Map<Int32Array, Int32Array>();
  return cols.map((col) => {
    if (!(col instanceof GatheredColumn)) return new GatheredColumn(col, indices, n, padded);
    let at = composed.get(col.indices);
    if (at === undefined) {
      at = compose(col.indices, indices, n);
      composed.set(col.indices, at);
    }
    return new GatheredColumn(col.source, at, n, padded || col.padded);
  });
}

/** Rows `indices[0..n)` of `col`, copied; of a gathered column, read from its source (nothing else is copied). */
export function takeRows(col: Column, indices: Int32Array, n: number): Column {
  if (!(col instanceof GatheredColumn)) return take(col, indices, n);
  const at = compose(col.indices, indices, n);
  return col.padded ? takeOrNull(col.source, at, n) : takeFrom(col.source, at, n);
}

/**
 * `take(source, indices, n)`; from a lazily concatenated column not yet copied, and few rows of it (a TopK's
 * rows of an aggregate's any_value over a join's parts), from the parts themselves: the whole is never built.
 * Only for one-off takes (`takeRows`): a gathered column read batch after batch (a join's build side) builds the
 * whole once instead, which costs less than picking from the parts every batch.
 */
function takeFrom(source: Column, indices: Int32Array, n: number): Column {
  if (n > 0 && source instanceof ConcatenatedColumn && n * FEW_ROWS < source.length) {
    const few = source.takeFew(indices, n);
    if (few !== null) return few;
  }
  return take(source, indices, n);
}

/** A take of at most 1/FEW_ROWS of a lazily concatenated column reads its parts (`ConcatenatedColumn.takeFew`). */
const FEW_ROWS = 8;

/** `inner[outer[i]]` for i < n, -1 where `outer[i]` is -1. */
function compose(inner: Int32Array, outer: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const j = outer[i]!;
    out[i] = j < 0 ? -1 : inner[j]!;
  }
  return out;
}

/** The source, indices and padding of a gathered column (whose values are not yet needed), or null. */
export function gatheredFrom(col: Column): { source: Column; indices: Int32Array; padded: boolean } | null {
  return col instanceof GatheredColumn ? { source: col.source, indices: col.indices, padded: col.padded } : null;
}

/**
 * The rows of `parts` one after another (one type), concatenated on the first read of the values or validity: a
 * join's build side keeps every input column, and one no operator above reads (Q3's c_mktsegment, kept for a
 * filter below the join) is then never copied. Parts without NULLs give `valid` null without concatenating.
 */
class ConcatenatedColumn implements Column {
  readonly type: DataType;
  readonly length: number;
  readonly #parts: readonly Column[];
  #whole: Column | null = null;

  constructor(parts: readonly Column[]) {
    this.type = parts[0]!.type;
    this.length = parts.reduce((n, c) => n + c.length, 0);
    this.#parts = parts;
  }

  get values(): ColumnValues {
    return this.#concatenated().values;
  }

  get valid(): Uint8Array | null {
    if (this.#whole === null && this.type.id !== 'null' && this.#parts.every((c) => c.valid === null)) return null;
    return this.#concatenated().valid;
  }

  #concatenated(): Column {
    this.#whole ??= gatheredNumbers(this.#parts, this.length) ?? concatColumns(this.#parts);
    return this.#whole;
  }

  /**
   * Rows `indices[0..n)` (n > 0, none -1) taken from the parts (each part's rows picked, then put in order), or
   * null once the whole is built (a plain take is then as cheap).
   */
  takeFew(indices: Int32Array, n: number): Column | null {
    if (this.#whole !== null) return null;
    const parts = this.#parts;
    const starts = new Int32Array(parts.length + 1);
    for (let p = 0; p < parts.length; p++) starts[p + 1] = starts[p]! + parts[p]!.length;
    const partOf = new Int32Array(n);
    const counts = new Int32Array(parts.length + 1);
    for (let i = 0; i < n; i++) {
      const x = indices[i]!;
      // The last part starting at or before x.
      let lo = 0;
      let hi = parts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= x) lo = mid;
        else hi = mid - 1;
      }
      partOf[i] = lo;
      counts[lo + 1]!++;
    }
    for (let p = 0; p < parts.length; p++) counts[p + 1]! += counts[p]!;
    // Rows grouped by part (each part's in output order); `order[i]`: where output row i sits among them.
    const local = new Int32Array(n);
    const order = new Int32Array(n);
    const next = counts.slice(0, parts.length);
    for (let i = 0; i < n; i++) {
      const p = partOf[i]!;
      const at = next[p]!++;
      local[at] = indices[i]! - starts[p]!;
      order[i] = at;
    }
    const picked = parts
      .map((c, p) => takeRows(c, local.subarray(counts[p]!, counts[p + 1]!), counts[p + 1]! - counts[p]!))
      .filter((c) => c.length > 0);
    return take(concatColumns(picked), order, n);
  }

  #codes: CodedText | null | undefined;

  /** The parts' codes one after another, when every part has codes into one dictionary (see `textCodesOf`). */
  codes(): CodedText | null {
    if (this.#codes !== undefined) return this.#codes;
    this.#codes = null;
    const each = this.#parts.map(textCodesOf);
    const dictionary = each[0]?.dictionary;
    if (dictionary === undefined || !each.every((c) => c?.dictionary === dictionary)) return null;
    const codes = new Uint8Array(this.length);
    let at = 0;
    for (const [i, c] of each.entries()) {
      codes.set(c!.codes.subarray(0, this.#parts[i]!.length), at);
      at += this.#parts[i]!.length;
    }
    this.#codes = { dictionary, codes };
    return this.#codes;
  }
}

/**
 * The codes of a text column into its table's dictionary (`text-dictionary.ts`): an accelerated table's column,
 * a slice of one, rows gathered from one (codes gathered, not text), or such columns concatenated lazily (a join's
 * build side). Null for anything else; never copies a column's text.
 */
export function textCodesOf(col: Column): CodedText | null {
  if (col.type.id !== 'utf8') return null;
  if (col instanceof GatheredColumn || col instanceof ConcatenatedColumn) return col.codes();
  return attachedCodes(col);
}

/**
 * Parts that are all rows gathered from Float64Array or Int32Array sources (a join's output batches, concatenated
 * as the next join's build side) copied straight from their sources into one array: one copy of each value instead
 * of one per part and another into the whole (Q9's build side of 325k rows). Null for anything else.
 */
function gatheredNumbers(parts: readonly Column[], length: number): Column | null {
  const from = parts.map((c) => (c instanceof GatheredColumn && !c.padded ? c : null));
  const first = from[0]?.source.values;
  if (!(first instanceof Float64Array || first instanceof Int32Array)) return null;
  const Ctor = first.constructor as typeof Float64Array | typeof Int32Array;
  if (!from.every((g) => g !== null && g.source.values instanceof Ctor)) return null;
  const values = new Ctor(length);
  const nulls = from.some((g) => g!.source.valid !== null);
  const valid = nulls ? new Uint8Array(length) : null;
  let at = 0;
  const copy = values instanceof Float64Array ? GATHER_INTO.f64 : GATHER_INTO.i32;
  for (const g of from as GatheredColumn[]) {
    const idx = g.indices;
    const n = g.length;
    // From a one- or two-byte copy when the source has one (as `take` does): scattered rows of q10's l_discount.
    const narrow = narrowOfFloat64(g.source.values);
    if (narrow instanceof Int8Array) GATHER_INTO.n8(values as Float64Array, at, narrow, idx, n);
    else if (narrow instanceof Int16Array) GATHER_INTO.n16(values as Float64Array, at, narrow, idx, n);
    else copy(values, at, g.source.values as Float64Array | Int32Array, idx, n);
    if (valid !== null) {
      const ok = g.source.valid;
      if (ok === null) valid.fill(1, at, at + n);
      else for (let i = 0; i < n; i++) valid[at + i] = ok[idx[i]!]!;
    }
    at += n;
  }
  return { type: parts[0]!.type, values, valid, length };
}

/** `out[at + i] = src[idx[i]]` for i < n (same array kinds); self-contained, for `monomorphicCopy`. */
function gatherInto(
  out: Float64Array | Int32Array,
  at: number,
  src: Float64Array | Int32Array,
  idx: Int32Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) out[at + i] = src[idx[i]!]!;
}

/** `gatherInto` from a narrow copy (`narrowOf`) into Float64 values. */
function gatherIntoWide(out: Float64Array, at: number, src: Int8Array | Int16Array, idx: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) out[at + i] = src[idx[i]!]!;
}

/** `gatherInto` compiled once per array kind (one copy for both went polymorphic: see `take`'s gathers). */
const GATHER_INTO = {
  f64: monomorphicCopy(gatherInto),
  i32: monomorphicCopy(gatherInto),
  n8: monomorphicCopy(gatherIntoWide),
  n16: monomorphicCopy(gatherIntoWide),
};

/**
 * Values `codes[0..n)` of `dictionary` (codes < 256), copied when first read; their codes are known without
 * reading text (`textCodesOf`: a sort ranks them by code). The gathered rows carry the codes, the dictionary's own
 * values do not: coding a dictionary value reads it as a plain column (with codes it would be coded through the
 * dictionary again, without end).
 */
export function gatherDictionary(dictionary: TextDictionary, codes: Int32Array, n: number): Column {
  const { values, size } = dictionary;
  const rows = { offsets: values.offsets, bytes: values.bytes };
  attachCodes(
    rows,
    dictionary,
    Uint8Array.from({ length: size }, (_, c) => c),
  );
  const source: Column = { type: { id: 'utf8' }, values: rows, valid: null, length: size };
  return new GatheredColumn(source, codes.length === n ? codes : codes.slice(0, n), n, false);
}

/** `parts` as one column (see `ConcatenatedColumn`); a single part is itself. */
export function concatLazily(parts: readonly Column[]): Column {
  return parts.length === 1 ? parts[0]! : new ConcatenatedColumn(parts);
}

/** A gathered column keeping fewer than 1/RETAIN_RATIO of its source's rows is copied out by `compactColumns`. */
const RETAIN_RATIO = 2;

/**
 * `columns`, with each gathered column that picks a small part of a plain source (a filter's survivors of a decoded
 * row group) copied into a column of its own, so an operator that keeps it (a join's build side, a sort's input)
 * does not keep the whole source alive: SF10 q07's build of 1.46 M filtered lineitem rows held 60 M decoded rows
 * (peak RSS 2.2 GB). Gathers from a lazily concatenated column (a join's build side) or from shared memory (an
 * accelerated table's slices) stay lazy: their sources are held anyway.
 */
export function compactColumns(columns: readonly Column[]): readonly Column[] {
  let out: Column[] | null = null;
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c]!;
    if (!(col instanceof GatheredColumn) || col.source instanceof ConcatenatedColumn) continue;
    if (col.source.length <= RETAIN_RATIO * col.length || isShared(col.source)) continue;
    out ??= [...columns];
    out[c] = { type: col.type, values: col.values, valid: col.valid, length: col.length };
  }
  return out ?? columns;
}

/** Whether the column's values live in a SharedArrayBuffer (the in-memory store's tables). */
function isShared(col: Column): boolean {
  const v = col.values;
  if (v === null || Array.isArray(v)) return false;
  const buffer = 'offsets' in v ? v.bytes.buffer : v.buffer;
  return typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer;
}

/** `b` with its columns compacted (`compactColumns`); `b` itself when none needed it. */
export function compactBatch(b: Batch): Batch {
  const columns = compactColumns(b.columns);
  return columns === b.columns ? b : { schema: b.schema, columns, length: b.length };
}
