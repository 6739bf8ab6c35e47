// `Int64Pairs`: the distinct (group, int64) pairs of a DISTINCT argument whose values pass 2^53 (a BigInt64Array
// batch): each value read as its two Int32 halves, never as a BigInt. Pairs are radix-partitioned by hash as they
// come and deduplicated a partition at a time (DuckDB's partitioned aggregate): each partition's table fits in cache.
import { mix32 } from '../hash/hash-keys.js';

/** A pair is 4 Int32: group, low half, high half, hash. */
const STRIDE = 4;
/** 2^PART_BITS partitions, by the hash's top bits. */
const PART_BITS = 6;
const PARTS = 1 << PART_BITS;
const INITIAL_PAIRS = 64;
/** Collected pairs are deduplicated once this many (and as many as were distinct) came in since the last time. */
const COMPACT_ROWS = 1 << 20;
const TWO_32 = 4294967296;

/** int64 values of one batch: numbers while exact (|v| < 2^53), else a BigInt64Array. */
export type Int64Values = Float64Array | BigInt64Array;

/**
 * One probe into a table over all 1M-row input in one table (16-byte slots, 32 MB for hits' ~700k (region, user)
 * pairs) missed the cache every row: ~190 ms on a loaded machine; collected and deduplicated per partition, ~60 ms.
 */
export class Int64Pairs {
  /** Partition p's pairs: [0, #distinct[p]) deduplicated, then collected ones up to #length[p]. */
  readonly #parts: Int32Array[] = Array.from({ length: PARTS }, () => new Int32Array(INITIAL_PAIRS * STRIDE));
  readonly #length = new Int32Array(PARTS);
  readonly #distinct = new Int32Array(PARTS);
  #collected = 0;
  #distinctTotal = 0;
  /** Slots of the table one partition is deduplicated with (reused). */
  #slots = new Int32Array(0);

  constructor(readonly compactRows = COMPACT_ROWS) {}

  /**
   * Adds the pairs (groups[i], v[i]) of the valid rows i < n. Float64 values are exact integers (an int64 or a
   * decimal's scaled value within ±2^53), split into the halves a BigInt64Array holds, so both forms meet.
   */
  add(groups: Int32Array, n: number, v: Int64Values, valid: Uint8Array | null): void {
    if (v instanceof BigInt64Array) {
      // Little-endian halves (every platform Node runs on).
      const halves = new Int32Array(v.buffer, v.byteOffset, v.length * 2);
      for (let i = 0; i < n; i++) {
        if (valid === null || valid[i] === 1) this.#append(groups[i]!, halves[2 * i]!, halves[2 * i + 1]!);
      }
    } else {
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        const x = v[i]!;
        const hi = Math.floor(x / TWO_32);
        this.#append(groups[i]!, (x - hi * TWO_32) | 0, hi | 0);
      }
    }
    if (this.#collected > Math.max(this.compactRows, this.#distinctTotal)) this.#compact();
  }

  #append(g: number, lo: number, hi: number): void {
    const h = mix32(mix32(lo ^ Math.imul(hi, 0x9e3779b1)) ^ Math.imul(g + 1, 0x85ebca6b));
    const p = h >>> (32 - PART_BITS);
    let part = this.#parts[p]!;
    const at = this.#length[p]! * STRIDE;
    if (at === part.length) {
      const grown = new Int32Array(part.length * 2);
      grown.set(part);
      this.#parts[p] = part = grown;
    }
    part[at] = g;
    part[at + 1] = lo;
    part[at + 2] = hi;
    part[at + 3] = h;
    this.#length[p]!++;
    this.#collected++;
  }

  /** Deduplicates every partition's collected pairs. */
  #compact(): void {
    let total = 0;
    for (let p = 0; p < PARTS; p++) total += this.#dedupe(p);
    this.#distinctTotal = total;
    this.#collected = 0;
  }

  /**
   * Deduplicates partition p in place: pair i moves to the next free position unless its table (sized to the
   * partition, slots = position + 1) finds it earlier. Returns the partition's distinct pairs.
   */
  #dedupe(p: number): number {
    const n = this.#length[p]!;
    if (n === this.#distinct[p]) return n;
    const part = this.#parts[p]!;
    let size = 16;
    while (size < 2 * n) size *= 2;
    if (this.#slots.length < size) this.#slots = new Int32Array(size);
    const slots = this.#slots.subarray(0, size).fill(0);
    const mask = size - 1;
    let d = 0;
    for (let i = 0; i < n; i++) {
      const at = i * STRIDE;
      const g = part[at]!;
      const lo = part[at + 1]!;
      const hi = part[at + 2]!;
      const h = part[at + 3]!;
      let s = h & mask;
      let found = false;
      for (let id = slots[s]!; id !== 0; s = (s + 1) & mask, id = slots[s]!) {
        const e = (id - 1) * STRIDE;
        if (part[e + 3] === h && part[e] === g && part[e + 1] === lo && part[e + 2] === hi) {
          found = true;
          break;
        }
      }
      if (found) continue;
      const to = d * STRIDE;
      part[to] = g;
      part[to + 1] = lo;
      part[to + 2] = hi;
      part[to + 3] = h;
      slots[s] = ++d;
    }
    this.#length[p] = d;
    this.#distinct[p] = d;
    return d;
  }

  /** Each group's number of distinct values, for `ngroups` groups. */
  counts(ngroups: number): Float64Array {
    this.#compact();
    const out = new Float64Array(ngroups);
    for (let p = 0; p < PARTS; p++) {
      const part = this.#parts[p]!;
      const end = this.#length[p]! * STRIDE;
      for (let at = 0; at < end; at += STRIDE) out[part[at]!]!++;
    }
    return out;
  }

  /** The pairs: groups, and the values as a BigInt64Array (halves copied in place, no BigInt made per value). */
  pairs(): { groups: Int32Array; values: BigInt64Array } {
    this.#compact();
    const n = this.#distinctTotal;
    const groups = new Int32Array(n);
    const halves = new Int32Array(n * 2);
    let k = 0;
    for (let p = 0; p < PARTS; p++) {
      const part = this.#parts[p]!;
      const end = this.#length[p]! * STRIDE;
      for (let at = 0; at < end; at += STRIDE, k++) {
        groups[k] = part[at]!;
        halves[2 * k] = part[at + 1]!;
        halves[2 * k + 1] = part[at + 2]!;
      }
    }
    return { groups, values: new BigInt64Array(halves.buffer) };
  }
}
