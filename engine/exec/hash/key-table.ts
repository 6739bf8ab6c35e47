// `KeyTable`: open-addressing hash table (linear probing) from key tuples of any types to dense entry ids.
import type { Column } from '../../arrow/column.js';
import { InternalError } from '../../errors.js';
import type { DataType } from '../../plan/types.js';
import { hashKeys } from './hash-keys.js';
import { type KeyColumn, keyColumnAs } from './key-column.js';
import type { KeyIndex } from './key-index.js';
import { KeyStore } from './key-store.js';

const INITIAL_SLOTS = 64;
/** `count` empty slots of (id, hash). */
function emptySlots(count: number): Int32Array {
  const slots = new Int32Array(2 * count);
  for (let s = 0; s < slots.length; s += 2) slots[s] = -1;
  return slots;
}

/** Rows probed together: pending rows keep their slots across rounds, so the table grows only between chunks. */
const CHUNK_ROWS = 2048;
/** A row's id while it is missing: set by the rounds, replaced by `#addMisses`. */
const MISS = -2;

/**
 * Entry ids are dense, in first-insertion order. A slot holds an entry id (-1 = empty) and the key's hash, so
 * probing compares keys only on a full hash match and growing never rehashes keys. Grows at 50% load.
 */
export class KeyTable implements KeyIndex {
  readonly #store: KeyStore;
  readonly #nullsEqual: boolean;
  /**
   * Slot s is `slots[2s]` (entry id, -1 = empty) beside `slots[2s + 1]` (its key's hash): a probe reads one cache
   * line, not one in an id array and one in a hash array.
   */
  #slots = emptySlots(INITIAL_SLOTS);
  #mask = INITIAL_SLOTS - 1;
  #hashScratch = new Int32Array(0);
  #scratch = new Int32Array(0);

  /** `nullsEqual`: NULL is a key like any other (GROUP BY); else rows with a NULL part get id -1 (joins). */
  constructor(types: readonly DataType[], nullsEqual: boolean) {
    this.#store = new KeyStore(types);
    this.#nullsEqual = nullsEqual;
  }

  get size(): number {
    return this.#store.size;
  }

  insert(cols: readonly Column[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    return this.#lookup(cols, n, true, out);
  }

  find(cols: readonly Column[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    return this.#lookup(cols, n, false, out);
  }

  reserve(keys: number): void {
    let slots = this.#mask + 1;
    while ((this.#store.size + keys) * 2 >= slots) slots *= 2;
    if (slots > this.#mask + 1) this.#grow(slots);
  }

  column(c: number, type: DataType): Column {
    return this.#store.column(c, type);
  }

  #lookup(cols: readonly Column[], n: number, add: boolean, out: Int32Array): Int32Array {
    const kinds = this.#store.kinds;
    if (this.#scratch.length < 2 * n) this.#scratch = new Int32Array(2 * n);
    // One scratch for int64 halves: a second int64 column converts into a fresh array.
    let scratch: Int32Array | null = this.#scratch;
    const keys = cols.map((col, c) => {
      const k = keyColumnAs(col, n, kinds[c]!, this.#nullsEqual, scratch);
      if (k.kind === 'i64' && k.pairs.buffer === scratch?.buffer) scratch = null;
      return k;
    });
    if (this.#hashScratch.length < n) this.#hashScratch = new Int32Array(n);
    const hashes = hashKeys(keys, n, this.#hashScratch);
    const skip = skipRows(keys, n, this.#nullsEqual, add);
    for (let start = 0; start < n; start += CHUNK_ROWS) {
      const end = Math.min(n, start + CHUNK_ROWS);
      // Room for every row of the chunk as a new key: no growth while rows are pending on their slots.
      this.reserve(end - start);
      this.#lookupChunk(keys, hashes, skip, start, end, add, out);
    }
    return out;
  }

  #pending = new Int32Array(CHUNK_ROWS);
  #slotOf = new Int32Array(CHUNK_ROWS);
  #candidates = new Int32Array(CHUNK_ROWS);
  #candidateIds = new Int32Array(CHUNK_ROWS);
  #equal = new Uint8Array(CHUNK_ROWS);
  /** The empty slot a missing row met, by its row in the chunk. */
  #missAt = new Int32Array(CHUNK_ROWS);

  /**
   * Rows [start, end) in two steps. First, in rounds, as DuckDB probes: each pending row walks to a slot that is
   * empty (a miss) or holds its full hash (a candidate); the candidates are compared a key column at a time, and
   * those that differ go on from their next slot. Then the misses, in row order, are added from the empty slot each
   * met: ids stay in first-seen order (`BatchRows` relies on it), and an earlier miss of the same key is met there.
   */
  #lookupChunk(
    keys: readonly KeyColumn[],
    hashes: Int32Array,
    skip: Uint8Array | null,
    start: number,
    end: number,
    add: boolean,
    out: Int32Array,
  ): void {
    const slots = this.#slots;
    const mask = this.#mask;
    const pending = this.#pending;
    const slotOf = this.#slotOf;
    const rows = this.#candidates;
    const candidateIds = this.#candidateIds;
    const eq = this.#equal;
    const missAt = this.#missAt;
    let m = 0;
    let misses = 0;
    for (let i = start; i < end; i++) {
      if (skip !== null && skip[i] === 1) out[i] = -1;
      else {
        pending[m] = i;
        slotOf[m++] = hashes[i]! & mask;
      }
    }
    while (m > 0) {
      let c = 0;
      for (let j = 0; j < m; j++) {
        const i = pending[j]!;
        const h = hashes[i]!;
        let s = slotOf[j]!;
        let id = slots[2 * s]!;
        while (id !== -1 && slots[2 * s + 1] !== h) {
          s = (s + 1) & mask;
          id = slots[2 * s]!;
        }
        if (id === -1) {
          out[i] = MISS;
          missAt[i - start] = s;
          misses++;
        } else {
          rows[c] = i;
          candidateIds[c] = id;
          // The slot to go on from if the keys differ.
          slotOf[c++] = (s + 1) & mask;
        }
      }
      eq.fill(1, 0, c);
      this.#store.narrow(keys, rows, candidateIds, c, eq);
      m = 0;
      for (let j = 0; j < c; j++) {
        if (eq[j] === 1) out[rows[j]!] = candidateIds[j]!;
        else {
          pending[m] = rows[j]!;
          slotOf[m++] = slotOf[j]!;
        }
      }
    }
    if (misses > 0) this.#addMisses(keys, hashes, start, end, add, out);
  }

  /** The rows of [start, end) marked MISS, in row order: added (or -1 when only finding) from their empty slots. */
  #addMisses(
    keys: readonly KeyColumn[],
    hashes: Int32Array,
    start: number,
    end: number,
    add: boolean,
    out: Int32Array,
  ): void {
    const store = this.#store;
    const slots = this.#slots;
    const mask = this.#mask;
    const missAt = this.#missAt;
    for (let i = start; i < end; i++) {
      if (out[i] !== MISS) continue;
      if (!add) {
        out[i] = -1;
        continue;
      }
      const h = hashes[i]!;
      let s = missAt[i - start]!;
      let id = slots[2 * s]!;
      // Slots before this one held other keys; a miss added since may hold this one.
      while (id !== -1 && (slots[2 * s + 1] !== h || !store.equals(id, keys, i))) {
        s = (s + 1) & mask;
        id = slots[2 * s]!;
      }
      if (id === -1) {
        id = store.size;
        store.append(keys, i);
        slots[2 * s] = id;
        slots[2 * s + 1] = h;
      }
      out[i] = id;
    }
  }

  /** Rehashes into `slots` slots (default: twice as many). */
  #grow(count = (this.#mask + 1) * 2): void {
    const old = this.#slots;
    const slots = emptySlots(count);
    const mask = count - 1;
    for (let s = 0; s < old.length; s += 2) {
      const id = old[s]!;
      if (id === -1) continue;
      const h = old[s + 1]!;
      let t = h & mask;
      while (slots[2 * t] !== -1) t = (t + 1) & mask;
      slots[2 * t] = id;
      slots[2 * t + 1] = h;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

/**
 * 1 where a row gets no id: some key part is NULL and NULLs are not keys, or an int64 part is not an integer (it
 * equals no key; inserting one is an internal error: the planner casts keys to one type). Null when none.
 */
function skipRows(keys: readonly KeyColumn[], n: number, nullsEqual: boolean, add: boolean): Uint8Array | null {
  let out = nullsEqual ? null : nullRows(keys, n);
  for (const k of keys) {
    if (k.kind !== 'i64' || k.misfit === null) continue;
    if (add) throw new InternalError('a non-integer key in an int64 hash table');
    out ??= new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i]! |= k.misfit[i]!;
  }
  return out;
}

/** 1 where some key part is NULL. */
export function nullRows(keys: readonly KeyColumn[], n: number): Uint8Array | null {
  let out: Uint8Array | null = null;
  for (const k of keys) {
    const valid = k.valid;
    if (valid === null) continue;
    out ??= new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i]! |= valid[i]! ^ 1;
  }
  return out;
}
