// `DistinctPairs`: the distinct (group, number) pairs of an aggregate's DISTINCT argument, in one open-addressing
// table on typed arrays: COUNT(DISTINCT x) per group without a JavaScript Set per group (and a boxed value per
// member), the cost that made TPC-H Q16 the slowest query against DuckDB.
import { hashNumber, mix32 } from '../hash/hash-keys.js';

const INITIAL = 1024;

export class DistinctPairs {
  /** Pair `i` is (groups[i], values[i]), in first-seen order. */
  #groups = new Int32Array(INITIAL);
  #values: Float64Array;
  #hashes = new Int32Array(INITIAL);
  #slots = new Int32Array(INITIAL * 2).fill(-1);
  #count = 0;
  /** Values came in an Int32Array (int32, date): handed on in one. */
  readonly int32: boolean;

  constructor(int32: boolean) {
    this.int32 = int32;
    this.#values = new Float64Array(INITIAL);
  }

  /** Adds the pairs (groups[i], v[i]) of the valid rows i < n. Values are equal as in a Set (NaN = NaN, -0 = 0). */
  add(groups: Int32Array, n: number, v: Int32Array | Float64Array, valid: Uint8Array | null): void {
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const x = v[i]!;
      const g = groups[i]!;
      const h = mix32(hashNumber(x) ^ Math.imul(g + 1, 0x9e3779b1));
      const slots = this.#slots;
      const mask = slots.length - 1;
      let s = h & mask;
      let found = false;
      for (let id = slots[s]!; id !== -1; s = (s + 1) & mask, id = slots[s]!) {
        const y = this.#values[id]!;
        if (this.#hashes[id] === h && this.#groups[id] === g && (y === x || (Number.isNaN(y) && Number.isNaN(x)))) {
          found = true;
          break;
        }
      }
      if (found) continue;
      const id = this.#count++;
      if (id === this.#groups.length) this.#grow();
      this.#groups[id] = g;
      this.#values[id] = x;
      this.#hashes[id] = h;
      if (this.#count * 2 > this.#slots.length) this.#rehash();
      else slots[s] = id;
    }
  }

  /** The pairs' groups and values (values as an Int32Array when they came in one). */
  pairs(): { groups: Int32Array; values: Int32Array | Float64Array } {
    const n = this.#count;
    const values = this.#values.subarray(0, n);
    return { groups: this.#groups.subarray(0, n), values: this.int32 ? Int32Array.from(values) : values };
  }

  #grow(): void {
    const cap = this.#groups.length * 2;
    const groups = new Int32Array(cap);
    groups.set(this.#groups);
    const values = new Float64Array(cap);
    values.set(this.#values);
    const hashes = new Int32Array(cap);
    hashes.set(this.#hashes);
    this.#groups = groups;
    this.#values = values;
    this.#hashes = hashes;
  }

  /** Twice the slots, every pair placed again by its stored hash (the last one added included). */
  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.#count; id++) {
      let s = this.#hashes[id]! & mask;
      while (slots[s] !== -1) s = (s + 1) & mask;
      slots[s] = id;
    }
    this.#slots = slots;
  }
}
