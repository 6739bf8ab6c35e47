// `DistinctPairs`: the distinct (group, number) pairs of an aggregate's DISTINCT argument: COUNT(DISTINCT x) per
// group without a JavaScript Set per group (and a boxed value per member), the cost that made TPC-H Q16 the slowest
// query against DuckDB. Integers are collected as they come and deduplicated in bulk (grouped by a counting sort,
// then one stamp per value); other numbers go into one open-addressing table on typed arrays.
import { hashNumber, mix32 } from '../hash/hash-keys.js';

const INITIAL = 1024;
/** Collected pairs are deduplicated once this many (and as many as were distinct) came in since the last time. */
const COMPACT_ROWS = 1 << 20;
/** Stamps per collected pair (plus a fixed 64Ki) the values' range may take; a wider range goes to the hash table. */
const STAMPS_PER_PAIR = 8;

export class DistinctPairs {
  /** Pair `i` is (groups[i], values[i]), in first-seen order. */
  #groups = new Int32Array(INITIAL);
  #values: Float64Array;
  #hashes = new Int32Array(INITIAL);
  #slots = new Int32Array(INITIAL * 2).fill(-1);
  #count = 0;
  /** Values came in an Int32Array (int32, date): handed on in one. */
  readonly int32: boolean;
  /**
   * True while every value so far is an int32 integer: pairs are appended as they come, duplicates included, and
   * deduplicated by `#compact` (pairs [0, #distinct) are distinct). Probing a hash table a pair costs a cache miss
   * or more once it outgrows the cache: Q16's 119k pairs took ~20 ms, collecting and compacting them ~2.
   */
  #collecting = true;
  #distinct = 0;
  #lo = 0;
  #hi = -1;
  #maxGroup = -1;

  /** `compactRows`: pairs collected between deduplications (a parameter for tests). */
  constructor(
    int32: boolean,
    readonly compactRows = COMPACT_ROWS,
  ) {
    this.int32 = int32;
    this.#values = new Float64Array(INITIAL);
  }

  /** Whether pairs go into the hash table (a value that is not an int32 integer came, or the range is too wide). */
  get hashing(): boolean {
    return !this.#collecting;
  }

  /** Adds the pairs (groups[i], v[i]) of the valid rows i < n. Values are equal as in a Set (NaN = NaN, -0 = 0). */
  add(groups: Int32Array, n: number, v: Int32Array | Float64Array, valid: Uint8Array | null): void {
    if (this.#collecting && this.#collect(groups, n, v, valid)) return;
    this.#addHashed(groups, n, v, valid);
  }

  /** Appends the batch's pairs when every valid value is an int32 integer; false (and hashing from now on) if not. */
  #collect(groups: Int32Array, n: number, v: Int32Array | Float64Array, valid: Uint8Array | null): boolean {
    let lo = this.#lo;
    let hi = this.#hi;
    let maxGroup = this.#maxGroup;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const x = v[i]!;
      if ((x | 0) !== x) {
        this.#leaveCollecting();
        return false;
      }
      if (hi < lo) lo = hi = x;
      else if (x < lo) lo = x;
      else if (x > hi) hi = x;
      if (groups[i]! > maxGroup) maxGroup = groups[i]!;
    }
    [this.#lo, this.#hi, this.#maxGroup] = [lo, hi, maxGroup];
    while (this.#count + n > this.#groups.length) this.#grow();
    const gs = this.#groups;
    const vs = this.#values;
    let k = this.#count;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      gs[k] = groups[i]!;
      // `| 0` makes -0 a 0.
      vs[k++] = v[i]! | 0;
    }
    this.#count = k;
    if (k - this.#distinct > Math.max(this.compactRows, this.#distinct) && !this.#compact()) this.#leaveCollecting();
    return true;
  }

  /**
   * Deduplicates the collected pairs in place: a counting sort by group, then within each group a value is kept
   * when its stamp (one per value of the range) does not hold the group yet. False, changing nothing, when the
   * range is too wide for the stamps to pay.
   */
  #compact(): boolean {
    const n = this.#count;
    if (n === this.#distinct) return true;
    const lo = this.#lo;
    const range = this.#hi - lo + 1;
    if (range > STAMPS_PER_PAIR * n + 65_536) return false;
    const groups = this.#groups;
    const values = this.#values;
    const count = this.#maxGroup + 1;
    const starts = new Int32Array(count + 1);
    for (let i = 0; i < n; i++) starts[groups[i]! + 1]!++;
    for (let g = 0; g < count; g++) starts[g + 1]! += starts[g]!;
    const next = starts.slice(0, count);
    const byGroup = new Int32Array(n);
    for (let i = 0; i < n; i++) byGroup[next[groups[i]!]!++] = values[i]!;
    const stamps = new Int32Array(range);
    let d = 0;
    for (let g = 0; g < count; g++) {
      const mark = g + 1;
      for (let j = starts[g]!; j < starts[g + 1]!; j++) {
        const x = byGroup[j]!;
        if (stamps[x - lo] === mark) continue;
        stamps[x - lo] = mark;
        groups[d] = g;
        values[d++] = x;
      }
    }
    this.#count = d;
    this.#distinct = d;
    return true;
  }

  /** Moves the collected pairs into the hash table; every later pair goes there too. */
  #leaveCollecting(): void {
    this.#collecting = false;
    const n = this.#count;
    const groups = this.#groups.slice(0, n);
    const values = this.#values.slice(0, n);
    this.#groups = new Int32Array(INITIAL);
    this.#values = new Float64Array(INITIAL);
    this.#hashes = new Int32Array(INITIAL);
    this.#slots = new Int32Array(INITIAL * 2).fill(-1);
    this.#count = 0;
    this.#addHashed(groups, n, values, null);
  }

  #addHashed(groups: Int32Array, n: number, v: Int32Array | Float64Array, valid: Uint8Array | null): void {
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
    if (this.#collecting && !this.#compact()) this.#leaveCollecting();
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
