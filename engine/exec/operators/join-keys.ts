// `JoinHashTable`: the build side's rows chained per distinct join key, probed a whole batch at a time.
import { type Column, makeColumn } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';
import { ScratchInts } from './scratch-ints.js';

/** (left row, right row) pairs of a join, `count` of them (the arrays may be longer). */
export interface Pairs {
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly count: number;
}

/**
 * Build rows are added batch by batch (row ids continue across batches). Each distinct key has a chain:
 * `head[key]` is its last row, `next[row]` the row added before it with the same key (-1 ends). NULL keys
 * never match and are not chained.
 */
export class JoinHashTable {
  /**
   * True while every build row so far has the key #denseLo + its row number (one integer key column without
   * NULLs, in order: a whole dimension table by its surrogate key, as TPC-H loads part, supplier and customer).
   * No index is built then, and a probe is a subtraction and a range check: part's 200k keys cost TPC-H q14's
   * threads ~4 ms each to index. Null before the first rows; false once a batch breaks the pattern (the rows so far
   * then go on as sorted keys, `#sorted`, or are indexed by their keys).
   */
  #dense: boolean | null = null;
  #denseLo = 0;
  #denseType: DataType | null = null;
  /**
   * Once the keys are no longer dense, while every build row's key is still above the one before (one integer
   * key column without NULLs: a fact table filtered in key order, as TPC-H's orders reach the joins of q3, q5 and
   * q10): row r's key is #sorted[r], no index is built, and a probe searches forward from where the previous probe
   * key was found (`#probeSorted`). Null otherwise; the rows so far are indexed when a batch breaks the order.
   */
  #sorted: Float64Array | null = null;
  #index: KeyIndex | null = null;
  #head = new Int32Array(64).fill(-1);
  #next = new Int32Array(64);
  #rows = 0;
  #newKeysPerRow = 0;
  /** Whether some build row has a NULL key (NOT IN needs to know). */
  hasNullKey = false;

  /**
   * Adds the next `n` build rows, given their key columns. `total`: the build's row count when known (every batch
   * is at hand): after the first batch, room is made once for the rest at the first batch's rate of new keys.
   */
  add(keys: readonly Column[], n: number, total: number | null = null): void {
    if (this.#dense !== false) {
      if (this.#extendsDense(keys, n)) {
        this.#rows += n;
        return;
      }
      this.#dense = false;
      this.#sorted = this.#denseKeys();
    }
    if (this.#sorted !== null) {
      if (this.#extendsSorted(keys, n, total)) {
        this.#rows += n;
        return;
      }
      this.#leaveSorted();
    }
    this.#addIndexed(keys, n, total);
  }

  /** The dense rows' keys so far (the sorted keys' array grows when a batch extends them). */
  #denseKeys(): Float64Array {
    const keys = new Float64Array(this.#rows);
    for (let i = 0; i < this.#rows; i++) keys[i] = this.#denseLo + i;
    return keys;
  }

  /** Whether rows [0, n) of `keys` keep the keys increasing (then appended to #sorted). */
  #extendsSorted(keys: readonly Column[], n: number, total: number | null): boolean {
    if (n === 0) return true;
    const v = plainIntegerKey(keys);
    if (v === null) return false;
    const col = keys[0]!;
    const rows = this.#rows;
    if (rows === 0) this.#denseType = col.type;
    else if (col.type.id !== this.#denseType!.id) return false;
    let last = rows === 0 ? Number.NEGATIVE_INFINITY : this.#sorted![rows - 1]!;
    for (let i = 0; i < n; i++) {
      const x = v[i]!;
      // NaN fails too.
      if (!(x > last)) return false;
      last = x;
    }
    let sorted = this.#sorted!;
    if (rows + n > sorted.length) {
      sorted = new Float64Array(Math.max(rows + n, total ?? 0, sorted.length * 2));
      sorted.set(this.#sorted!.subarray(0, rows));
      this.#sorted = sorted;
    }
    sorted.set(v.subarray(0, n), rows);
    return true;
  }

  /** Indexes the sorted rows added so far by their keys; from here on every key goes through the index. */
  #leaveSorted(): void {
    const rows = this.#rows;
    const sorted = this.#sorted!;
    this.#sorted = null;
    if (rows === 0) return;
    const type = this.#denseType!;
    const keys = sorted.subarray(0, rows);
    const values = type.id === 'int32' || type.id === 'date' ? Int32Array.from(keys) : keys;
    this.#rows = 0;
    this.#addIndexed([makeColumn(type, values, null, rows)], rows, rows);
  }

  /** Whether rows [0, n) of `keys` continue the dense keys (taking the first row's key as #denseLo at the start). */
  #extendsDense(keys: readonly Column[], n: number): boolean {
    if (n === 0) return true;
    const v = plainIntegerKey(keys);
    if (v === null) return false;
    const col = keys[0]!;
    if (this.#rows === 0) {
      if (!Number.isInteger(v[0])) return false;
      this.#denseLo = v[0]!;
      this.#denseType = col.type;
    }
    const from = this.#denseLo + this.#rows;
    for (let i = 0; i < n; i++) if (v[i] !== from + i) return false;
    this.#dense = true;
    return true;
  }

  /** Indexes the dense rows added so far by their keys; from here on every key goes through the index. */
  #leaveDense(): void {
    this.#dense = false;
    this.#sorted = this.#denseKeys();
    this.#leaveSorted();
  }

  #addIndexed(keys: readonly Column[], n: number, total: number | null): void {
    this.#index ??= makeKeyIndex(
      keys.map((k) => k.type),
      false,
    );
    // Reserve for as many new keys as the last batch brought (per row): a unique-key build sizes its table once,
    // a low-cardinality one stays small enough to probe in cache.
    const before = this.#index.size;
    const first = this.#rows === 0;
    if (first && total !== null) this.#index.expectRows?.(total);
    // The first batch of a build of known size is taken to be all new keys (at most 4 slots a row of it).
    this.#index.reserve(first && total !== null ? n : Math.ceil(n * this.#newKeysPerRow));
    const ids = this.#index.insert(keys, n, KEY_IDS.take(n));
    this.#newKeysPerRow = (this.#index.size - before) / n;
    // Growing a hashed table by doublings rehashes every key each time (q9's 800k two-column keys); the chains are
    // sized once too: each doubling of a 200k-row build's arrays was a copy and megabytes more for the GC to count.
    let keysAhead = this.#index.size;
    if (first && total !== null && total > n) {
      const more = Math.ceil((total - n) * this.#newKeysPerRow);
      this.#index.reserve(more);
      keysAhead += more;
    }
    this.#head = fit(this.#head, keysAhead, -1);
    this.#next = fit(this.#next, Math.max(this.#rows + n, total ?? 0), -1);
    const head = this.#head;
    const next = this.#next;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      const row = this.#rows + i;
      if (id === -1) {
        this.hasNullKey = true;
        continue;
      }
      next[row] = head[id]!;
      head[id] = row;
    }
    this.#rows += n;
  }

  /**
   * Every (probe row, build row) pair with equal keys: probe rows ascending, each one's build rows descending.
   * `firstOnly`: one pair per matching probe row (semi and anti joins only ask whether there is a match).
   */
  probe(keys: readonly Column[], n: number, firstOnly = false): Pairs {
    if (this.#dense === true) {
      const dense = this.#probeDense(keys[0]!, n);
      if (dense !== null) return dense;
      this.#leaveDense();
    }
    if (this.#sorted !== null) {
      const sorted = this.#probeSorted(keys[0]!, n);
      if (sorted !== null) return sorted;
      this.#leaveSorted();
    }
    if (this.#index === null) return { left: new Int32Array(0), right: new Int32Array(0), count: 0 };
    const ids = this.#index.find(keys, n, KEY_IDS.take(n));
    let left = new Int32Array(Math.max(16, n));
    let right = new Int32Array(left.length);
    let count = 0;
    if (this.#index.size === this.#rows) {
      // Every build row has a key of its own (a primary key; a NULL key takes a row but no id): ids are dense in
      // insertion order, so row r has id r. One pair per matching probe row, no chain read (two random reads less).
      for (let i = 0; i < n; i++) {
        const id = ids[i]!;
        left[count] = i;
        right[count] = id;
        count += (id >>> 31) ^ 1;
      }
      return { left, right, count };
    }
    const head = this.#head;
    const next = this.#next;
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      if (id === -1) continue;
      for (let r = head[id]!; r !== -1; r = next[r]!) {
        if (count === left.length) {
          left = fit(left, count + 1, 0);
          right = fit(right, count + 1, 0);
        }
        left[count] = i;
        right[count++] = r;
        if (firstOnly) break;
      }
    }
    return { left, right, count };
  }

  /** `probeSortedKeys`; a batch whose keys mostly went backwards indexes the rows for the batches after it. */
  #probeSorted(col: Column, n: number): Pairs | null {
    const found = probeSortedKeys(this.#sorted!, this.#rows, col, n);
    if (found !== null && found.backwards * 4 > n) this.#leaveSorted();
    return found;
  }

  /**
   * Probes dense build rows (`#dense`): the probe row's key minus #denseLo is its build row. Null for keys the
   * subtraction cannot take (int64 values past 2^53): the index answers those.
   */
  #probeDense(col: Column, n: number): Pairs | null {
    const v = col.values;
    if (!(v instanceof Int32Array || v instanceof Float64Array)) return col.type.id === 'null' ? NO_PAIRS : null;
    const valid = col.valid;
    const lo = this.#denseLo;
    const rows = this.#rows;
    const left = new Int32Array(Math.max(16, n));
    const right = new Int32Array(left.length);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const d = v[i]! - lo;
      left[count] = i;
      right[count] = d;
      // In range, a whole number (NaN and fractions fail `(d | 0) === d`), and not NULL.
      count += d >= 0 && d < rows && (d | 0) === d && (valid === null || valid[i] === 1) ? 1 : 0;
    }
    return { left, right, count };
  }
}

/**
 * Probes sorted build rows (`#sorted`): each probe key's row is found by galloping from the previous key's position
 * (forward when the probe keys ascend, as a fact table's foreign keys often do, else backward), then a binary search.
 * Null for keys the comparisons cannot take (int64 values past 2^53): the index answers those; and when a quarter of
 * the batch's first EARLY_ROWS keys go backwards: random keys are then indexed before the batch's binary searches
 * (TPC-H q03's first orders batch against 30k sorted customer keys: ~2 ms a query in searches).
 */
function probeSortedKeys(
  sorted: Float64Array,
  rows: number,
  col: Column,
  n: number,
): (Pairs & { readonly backwards: number }) | null {
  const v = col.values;
  if (!(v instanceof Int32Array || v instanceof Float64Array))
    return col.type.id === 'null' ? { ...NO_PAIRS, backwards: 0 } : null;
  const valid = col.valid;
  const left = new Int32Array(Math.max(16, n));
  const right = new Int32Array(left.length);
  let count = 0;
  // Probe keys below the previous one: random probes cost a binary search over every row each, where a hash
  // table's costs a slot or two.
  let backwards = 0;
  // The first row whose key is ≥ the previous probe key.
  let at = 0;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    let lo: number;
    let hi: number;
    if (at < rows && sorted[at]! < x) {
      // Forward: double the step until a key ≥ x, then search between.
      let step = 1;
      lo = at + 1;
      while (lo + step <= rows && sorted[lo + step - 1]! < x) {
        lo += step;
        step *= 2;
      }
      hi = Math.min(rows, lo + step - 1);
    } else if (at > 0 && sorted[at - 1]! >= x) {
      lo = 0;
      hi = at - 1;
      backwards++;
    } else {
      lo = at;
      hi = at;
    }
    // The first row in [lo, hi] with a key ≥ x (hi when none below it is).
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    at = lo;
    left[count] = i;
    right[count] = lo;
    count += lo < rows && sorted[lo] === x && (valid === null || valid[i] === 1) ? 1 : 0;
    if (i === EARLY_ROWS - 1 && backwards * 4 > EARLY_ROWS) return null;
  }
  return { left, right, count, backwards };
}

/** `probeSortedKeys` gives up after this many rows when a quarter of them went backwards. */
const EARLY_ROWS = 64;

const NO_PAIRS: Pairs = { left: new Int32Array(0), right: new Int32Array(0), count: 0 };

/** Key types whose build rows may be dense or sorted (`JoinHashTable.#dense`, `#sorted`). */
const DENSE_TYPES = new Set(['int32', 'date', 'int64']);

/** The values of a build's one integer key column without NULLs, held as numbers; null for any other key. */
function plainIntegerKey(keys: readonly Column[]): Int32Array | Float64Array | null {
  const col = keys[0]!;
  const v = col.values;
  if (keys.length !== 1 || col.valid !== null || !DENSE_TYPES.has(col.type.id)) return null;
  return v instanceof Int32Array || v instanceof Float64Array ? v : null;
}

/** The key ids of the batch being added or probed: read within `add` / `probe`, so one buffer serves the thread. */
const KEY_IDS = new ScratchInts();

/** `a` grown to hold at least `n` entries, new entries set to `fill`. */
function fit(a: Int32Array<ArrayBuffer>, n: number, fill: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  b.fill(fill, a.length);
  return b;
}
