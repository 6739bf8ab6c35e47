// `createMemoryTable`: a TableProvider over columns held in memory (SharedArrayBuffer-backed when loaded).
import { randomUUID } from 'node:crypto';
import { type Batch, sliceBatch } from '../../arrow/batch.js';
import { type Column, columnArrays, isUtf8Bytes, markSorted } from '../../arrow/column.js';
import { attachNarrow, type NarrowArray } from '../../arrow/narrow-values.js';
import { attachCodes, sliceCodes, type TextDictionary } from '../../arrow/text-dictionary.js';
import type { ScanRequest, SharedTable, TableProvider } from '../../catalog.js';
import { CancelledError, InternalError } from '../../errors.js';
import type { Schema } from '../../plan/types.js';
import { chunkInOrder, columnInOrder, INCREASING, SORTED, valueRangeOf, type ZoneFacts } from './column-facts.js';
import { ZoneMaps } from './zone-maps.js';

/** `SharedTable.kind` of a memory table: `rebuildSharedTable` hands its data back to `createMemoryTable`. */
export const MEMORY_KIND = 'memory';

/** Structured-cloneable table data: typed arrays over SharedArrayBuffers cross threads without copying. */
export interface MemoryTableData {
  readonly schema: Schema;
  readonly chunks: readonly { readonly length: number; readonly columns: readonly Column[] }[];
  /**
   * Per field, a text column's dictionary and each chunk's codes into it (`encodeDictionary`), or null; absent:
   * none. Columns with a dictionary are UTF-8 bytes.
   */
  readonly dictionaries?: readonly (StoredDictionary | null)[];
  /**
   * Per field, each chunk's narrow copy of a number column of small integers (`narrowValues`), or null; absent:
   * none. Filters compare the copies.
   */
  readonly narrow?: readonly (readonly (NarrowArray | null)[] | null)[];
  /**
   * Per field, each chunk's zone facts (`zoneFacts`: min, max, NULLs and order per 4,096 rows), made once by the
   * loader; absent: each thread computes them on first use. Zone maps, value ranges, keys and sorted chunks are
   * read off them.
   */
  readonly zones?: readonly (readonly (ZoneFacts | null)[])[];
}

export interface StoredDictionary {
  readonly dictionary: TextDictionary;
  readonly codes: readonly Uint8Array[];
}

export function createMemoryTable(data: MemoryTableData): TableProvider {
  const { schema, chunks } = data;
  for (const [at, d] of (data.dictionaries ?? []).entries()) {
    if (d === null) continue;
    // Codes for a chunk that does not match it row for row (data put together by hand) are left out.
    for (const [i, chunk] of chunks.entries()) {
      const values = chunk.columns[at]?.values;
      if (d.codes[i]?.length === chunk.length && isUtf8Bytes(values)) attachCodes(values, d.dictionary, d.codes[i]!);
    }
  }
  for (const [at, copies] of (data.narrow ?? []).entries()) {
    for (const [i, chunk] of chunks.entries()) {
      const values = chunk.columns[at]?.values;
      const copy = copies?.[i];
      if ((values instanceof Float64Array || values instanceof Int32Array) && copy != null) attachNarrow(values, copy);
    }
  }
  const rowCount = chunks.reduce((n, c) => n + c.length, 0);
  const index = new Map(schema.fields.map((f, i) => [f.name, i]));
  const ranges = new Map<string, number | null>();
  const keys = new Map<string, boolean>();
  const zones = new ZoneMaps(data, index);
  let shared: SharedTable | null | undefined;
  /** Per column, per chunk: whether its values were checked for order (and marked when sorted: `markSorted`). */
  const ordered = schema.fields.map(() => new Uint8Array(chunks.length));
  const checkOrder = (chunk: number, at: number): void => {
    if (ordered[at]![chunk] === 1) return;
    ordered[at]![chunk] = 1;
    const col = chunks[chunk]!.columns[at]!;
    if (chunkInOrder(col, zones.facts(at)[chunk] ?? null, SORTED)) markSorted(col.values as Int32Array | Float64Array);
  };
  const columnOf = (at: number) => chunks.map((c) => c.columns[at]!);
  /** max − min + 1 of an integer or date column, computed once (an upper bound on its distinct values). */
  const rangeOf = (name: string): number | null => {
    const at = index.get(name);
    if (!ranges.has(name))
      ranges.set(name, at === undefined ? null : valueRangeOf(columnOf(at), zones.facts(at), rowCount));
    return ranges.get(name) ?? null;
  };
  /** Whether a column is in `order` over the whole table in chunk order. */
  const inOrder = (name: string, order: typeof SORTED | typeof INCREASING): boolean => {
    const at = index.get(name);
    return at !== undefined && columnInOrder(columnOf(at), zones.facts(at), order);
  };
  const ascending = new Map<string, boolean>();
  /** Whether a column never decreases over the whole table in chunk order, computed once per column. */
  const isAscending = (name: string): boolean => {
    if (!ascending.has(name)) ascending.set(name, inOrder(name, SORTED));
    return ascending.get(name)!;
  };
  return {
    schema,
    kind: 'memory',
    statistics: () => ({
      rowCount,
      // A coded text column holds at most its dictionary's values and NULL.
      distinctCount: (c) => rangeOf(c) ?? dictionarySize(data, index.get(c)),
      unique: (c) => {
        // Never decreasing: a key exactly when strictly increasing (a repeat sits beside its twin).
        if (!keys.has(c))
          keys.set(c, inOrder(c, SORTED) ? inOrder(c, INCREASING) : isKey(chunks, index.get(c), rangeOf(c)));
        return keys.get(c)!;
      },
      splitPoints: (c, parts) => (isAscending(c) ? splitPoints(chunks, index.get(c)!, rowCount, parts) : null),
    }),
    explainScan: async (req) => {
      const kept = chunks.filter((_, i) => zones.mayMatch(req.filters, i)).length;
      return req.filters.length > 0
        ? `chunks=${kept}/${chunks.length} rows=${rowCount}`
        : `chunks=${chunks.length} rows=${rowCount}`;
    },
    shared() {
      shared ??= inSharedMemory(data) ? { id: randomUUID(), kind: MEMORY_KIND, data } : null;
      return shared;
    },
    async *scan(req, signal) {
      const cols = req.columns.map((c) => index.get(c)!);
      const out: Schema = { fields: cols.map((i) => schema.fields[i]!) };
      const pruner = zones.pruner(req.filters);
      let left = req.limit ?? Number.POSITIVE_INFINITY;
      for (const at of chunkOrder(chunks.length, req.partition?.next)) {
        const chunk = chunks[at]!;
        if (left <= 0) return;
        if (signal.aborted) throw new CancelledError();
        const [lo, hi] = shareOf(chunk, req.partition, index);
        if (lo >= hi) continue;
        for (const [start, end] of clip(pruner.ranges(at), lo, hi)) {
          // A slice's text is a fresh wrapper already; the whole chunk's gets one per query (`perQuery`).
          const sliced = start > 0 || end < chunk.length;
          const whole: Batch = {
            schema: out,
            columns: cols.map((i) => {
              checkOrder(at, i);
              return sliced ? chunk.columns[i]! : perQuery(chunk.columns[i]!);
            }),
            length: chunk.length,
          };
          left -= end - start;
          yield sliceBatch(whole, start, end);
        }
      }
    },
  };
}

function dictionarySize(data: MemoryTableData, at: number | undefined): number | null {
  const d = at === undefined ? null : data.dictionaries?.[at];
  return d == null ? null : d.dictionary.size + 1;
}

/**
 * The chunks a scan reads, in order: all of them, or with a shared counter, each one this scan claims from it
 * (`Atomics.add` hands every chunk to exactly one of the scans sharing the counter).
 */
function* chunkOrder(count: number, next: Int32Array | undefined): Iterable<number> {
  if (next === undefined) {
    for (let at = 0; at < count; at++) yield at;
    return;
  }
  for (let at = Atomics.add(next, 0, 1); at < count; at = Atomics.add(next, 0, 1)) yield at;
}

/**
 * The rows [lo, hi) of one chunk in the scan's partition. A share in scan order: each chunk's rows are split into
 * `count` runs of consecutive rows, run `index` being the partition's, so every partition reads a share of every
 * chunk; a chunk claimed from a shared counter (`next`) is read whole. A key range: the rows whose key is in it,
 * found by binary search (the column never decreases: `splitPoints` said so).
 */
function shareOf(
  chunk: MemoryTableData['chunks'][number],
  partition: ScanRequest['partition'],
  index: ReadonlyMap<string, number>,
): [number, number] {
  const length = chunk.length;
  if (partition?.keys !== undefined) {
    const { column, lo, hi } = partition.keys;
    const v = chunk.columns[index.get(column) ?? -1]?.values;
    if (!(v instanceof Int32Array || v instanceof Float64Array))
      throw new InternalError(`a key-range partition of column ${column}, which is not ordered numbers`);
    return [lowerBound(v, lo, length), lowerBound(v, hi, length)];
  }
  if (partition === undefined || partition.next !== undefined) return [0, length];
  const lo = Math.floor((length * partition.index) / partition.count);
  const hi = Math.floor((length * (partition.index + 1)) / partition.count);
  return [lo, hi];
}

/** The first of rows [0, n) of ascending `v` whose value is at least `x` (n if none). */
function lowerBound(v: Int32Array | Float64Array, x: number, n: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The parts of `ranges` inside rows [lo, hi). */
function* clip(ranges: Iterable<[number, number]>, lo: number, hi: number): Iterable<[number, number]> {
  for (const [start, end] of ranges) {
    const s = Math.max(start, lo);
    const e = Math.min(end, hi);
    if (s < e) yield [s, e];
  }
}

/** The values at rows ⌊j · rows / parts⌋ (j = 1 .. parts − 1) of column `at`, in chunk order. */
function splitPoints(chunks: MemoryTableData['chunks'], at: number, rows: number, parts: number): number[] {
  const out: number[] = [];
  let j = 1;
  let before = 0;
  for (const chunk of chunks) {
    while (j < parts && Math.floor((j * rows) / parts) < before + chunk.length) {
      const v = chunk.columns[at]!.values as Int32Array | Float64Array;
      out.push(v[Math.floor((j * rows) / parts) - before]!);
      j++;
    }
    before += chunk.length;
  }
  return out;
}

/** Whether every buffer behind the table's columns is a SharedArrayBuffer (other threads then read, not copy). */
function inSharedMemory(data: MemoryTableData): boolean {
  return data.chunks.every((chunk) =>
    chunk.columns.every(
      (c) => !Array.isArray(c.values) && columnArrays(c).every((a) => a.buffer instanceof SharedArrayBuffer),
    ),
  );
}

/** Keys are checked with a bitmap over their range while it has at most this many bits per row. */
const KEY_BITS_PER_ROW = 64;

/**
 * Whether an integer or date column holds no NULL and no value twice, when its zone facts did not show it in order
 * (`columnInOrder`): strictly increasing values under a validity array without NULLs in one pass, else
 * a bitmap over [min, max] while that range is at most KEY_BITS_PER_ROW bits a row (`range`: max − min + 1, capped
 * at the row count by `valueRangeOf`). Unknown (false) otherwise.
 */
function isKey(chunks: MemoryTableData['chunks'], at: number | undefined, range: number | null): boolean {
  if (at === undefined || range === null) return false;
  const columns = chunks.map((c) => c.columns[at]!);
  // Fewer possible values than rows: some value repeats.
  if (range < columns.reduce((n, c) => n + c.length, 0)) return false;
  if (columns.some((c) => c.valid?.includes(0))) return false;
  const values = columns.map((c) => (c.values as Int32Array | Float64Array).subarray(0, c.length));
  let prev = Number.NEGATIVE_INFINITY;
  let increasing = true;
  for (const v of values) {
    for (let i = 0; i < v.length && increasing; i++) {
      increasing = v[i]! > prev;
      prev = v[i]!;
    }
  }
  if (increasing) return true;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let rows = 0;
  for (const v of values) {
    rows += v.length;
    for (let i = 0; i < v.length; i++) {
      if (v[i]! < lo) lo = v[i]!;
      if (v[i]! > hi) hi = v[i]!;
    }
  }
  const span = hi - lo + 1;
  if (span > rows * KEY_BITS_PER_ROW || span > 2 ** 31) return false;
  const seen = new Int32Array(Math.ceil(span / 32));
  for (const v of values) {
    for (let i = 0; i < v.length; i++) {
      const d = v[i]! - lo;
      const bit = 1 << (d & 31);
      if ((seen[d >>> 5]! & bit) !== 0) return false;
      seen[d >>> 5]! |= bit;
    }
  }
  return true;
}

/**
 * Decoded strings are memoized per UTF-8 buffer object; a fresh wrapper per scan keeps that memo
 * per query, so a worker does not hold a private decoded copy of a shared table's text forever.
 */
function perQuery(col: Column): Column {
  const v = col.values;
  if (v === null || Array.isArray(v) || !('offsets' in v)) return col;
  const values = { offsets: v.offsets, bytes: v.bytes };
  sliceCodes(v, values, 0, col.length);
  return { ...col, values };
}
