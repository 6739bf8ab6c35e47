// `Int64KeyTable`: one int64/decimal key column in an open-addressing table of (lo, hi) int32 pairs: no BigInt per
// row, whether the batch is BigInt64- or Float64-backed.
import type { Column } from '../../arrow/column.js';
import { InternalError } from '../../errors.js';
import type { DataType } from '../../plan/types.js';
import { hashHalves } from './hash-keys.js';
import { halvesColumn, int64Halves } from './int64-halves.js';
import type { KeyIndex } from './key-index.js';

const INITIAL_ENTRIES = 64;

/**
 * A slot holds an entry id (-1 = empty); entry `id`'s key is `keys[2id]` (low half), `keys[2id + 1]` (high half)
 * and its hash `hashes[id]`, so growing rehashes from the stored hashes in entry order. Slots are a power of two,
 * grown at 50% load. Before it, a 63-bit user id took a `Map<bigint, number>` lookup and a BigInt per row: GROUP BY
 * over 1M rows and 165k such keys spent 2.1 s of 2.8 s in the map (hits-lite, a loaded machine).
 */
export class Int64KeyTable implements KeyIndex {
  readonly #nullsEqual: boolean;
  #keys = new Int32Array(2 * INITIAL_ENTRIES);
  #hashes = new Int32Array(INITIAL_ENTRIES);
  #size = 0;
  #slots = new Int32Array(4 * INITIAL_ENTRIES).fill(-1);
  #nullId = -1;
  /** Converted halves of Float64-backed batches, reused. */
  #scratch = new Int32Array(0);

  constructor(nullsEqual: boolean) {
    this.#nullsEqual = nullsEqual;
  }

  get size(): number {
    return this.#size;
  }

  insert(cols: readonly Column[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    return this.#lookup(cols[0]!, n, true, out);
  }

  find(cols: readonly Column[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    return this.#lookup(cols[0]!, n, false, out);
  }

  reserve(keys: number): void {
    this.#entriesFor(this.#size + keys);
    let slots = this.#slots.length;
    while ((this.#size + keys) * 2 >= slots) slots *= 2;
    if (slots > this.#slots.length) this.#rehash(slots);
  }

  column(_c: number, type: DataType): Column {
    let valid: Uint8Array | null = null;
    if (this.#nullId !== -1) {
      valid = new Uint8Array(this.#size).fill(1);
      valid[this.#nullId] = 0;
    }
    return halvesColumn(type, this.#keys, valid, this.#size);
  }

  #lookup(col: Column, n: number, add: boolean, out: Int32Array): Int32Array {
    if (col.type.id === 'null' || col.values === null) return out.fill(this.#nullEntry(add), 0, n);
    if (this.#scratch.length < 2 * n) this.#scratch = new Int32Array(2 * n);
    const { pairs, misfit } = int64Halves(col, n, this.#scratch);
    if (misfit !== null && add) throw new InternalError('a non-integer key in an int64 hash table');
    const valid = col.valid;
    let keys = this.#keys;
    let slots = this.#slots;
    let mask = slots.length - 1;
    for (let i = 0; i < n; i++) {
      if ((valid !== null && valid[i] === 0) || (misfit !== null && misfit[i] === 1)) {
        out[i] = misfit !== null && misfit[i] === 1 ? -1 : this.#nullEntry(add);
        continue;
      }
      const lo = pairs[2 * i]!;
      const hi = pairs[2 * i + 1]!;
      const h = hashHalves(lo, hi);
      let s = h & mask;
      let id = slots[s]!;
      while (id !== -1 && (keys[2 * id] !== lo || keys[2 * id + 1] !== hi)) {
        s = (s + 1) & mask;
        id = slots[s]!;
      }
      if (id === -1 && add) {
        id = this.#append(lo, hi, h);
        slots[s] = id;
        if (this.#size * 2 > mask) {
          this.#rehash(slots.length * 2);
          slots = this.#slots;
          mask = slots.length - 1;
        }
        keys = this.#keys;
      }
      out[i] = id;
    }
    return out;
  }

  #append(lo: number, hi: number, h: number): number {
    const id = this.#size++;
    this.#entriesFor(id + 1);
    this.#keys[2 * id] = lo;
    this.#keys[2 * id + 1] = hi;
    this.#hashes[id] = h;
    return id;
  }

  /** Room for `count` entries (doubling). */
  #entriesFor(count: number): void {
    if (count <= this.#hashes.length) return;
    let cap = this.#hashes.length;
    while (cap < count) cap *= 2;
    const keys = new Int32Array(2 * cap);
    keys.set(this.#keys);
    const hashes = new Int32Array(cap);
    hashes.set(this.#hashes);
    this.#keys = keys;
    this.#hashes = hashes;
  }

  #nullEntry(add: boolean): number {
    if (!this.#nullsEqual) return -1;
    if (this.#nullId === -1 && add) this.#nullId = this.#append(0, 0, 0);
    return this.#nullId;
  }

  /** `count` slots, filled from the stored hashes in entry order (the NULL entry has no slot). */
  #rehash(count: number): void {
    const slots = new Int32Array(count).fill(-1);
    const mask = count - 1;
    const hashes = this.#hashes;
    for (let id = 0; id < this.#size; id++) {
      if (id === this.#nullId) continue;
      let s = hashes[id]! & mask;
      while (slots[s] !== -1) s = (s + 1) & mask;
      slots[s] = id;
    }
    this.#slots = slots;
  }
}
