// `DirectIds`: entry ids of integer keys in one Int32Array indexed by `key - lo`, for keys that fill much of their
// range (surrogate keys 1..N, dates): a lookup is one array read, with no hashing and no probing.
import { isSortedArray } from '../../arrow/column.js';

/** A range of this many keys is always allowed (256 KiB of ids). */
const MIN_SPAN = 1 << 16;
/**
 * Beyond that, up to this many slots per distinct key: 64 bytes a key, what the hash table spends on its 16-byte
 * slots at 25% load (it doubles at 50%). TPC-H order keys use 1 in 4 of their range, half of them 1 in 8.
 */
const SPAN_PER_KEY = 16;

/** The largest range worth a direct array for `keys` distinct keys. */
export function maxSpan(keys: number): number {
  return Math.max(MIN_SPAN, SPAN_PER_KEY * keys);
}

/**
 * `ids[key - lo]` is the entry id of `key`, -1 when absent. Holds numeric keys only: the owning table keeps NULL
 * and int64 values beyond ±2^53 aside. Does not check that a key is in range: `cover` first.
 */
export class DirectIds {
  lo = 0;
  ids = new Int32Array(0);
  /** The highest key covered so far (the array may reach beyond it). */
  #top = 0;

  /**
   * Widens the range to hold the valid rows [from, n) of `values` when they are all integers and the range stays
   * within `limit` keys; returns false (and changes nothing) otherwise.
   */
  cover(
    values: Int32Array | Float64Array | Uint8Array,
    valid: Uint8Array | null,
    from: number,
    n: number,
    limit: number,
    expectSpan = 0,
  ): boolean {
    // Sorted integers (a table loaded in key order: q18's l_orderkey): the ends are the range.
    if (valid === null && n > from && isSortedArray(values))
      return this.widen(values[from]!, values[n - 1]!, limit, expectSpan);
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = from; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const x = values[i]!;
      // Fractions, NaN and ±Infinity (a span beyond any limit) stay out.
      if (x !== Math.floor(x)) return false;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (lo > hi) return true;
    return this.widen(lo, hi, limit, expectSpan);
  }

  /**
   * Widens the range to hold [lo, hi] if it then spans at most `limit` keys; false (unchanged) if not.
   * `expectSpan`: the range the keys still to come are expected to reach (a build of known size), allocated at
   * once instead of by doublings.
   */
  widen(lo: number, hi: number, limit: number, expectSpan = 0): boolean {
    const span = this.ids.length;
    if (span > 0 && lo >= this.lo && hi < this.lo + span) {
      this.#top = Math.max(this.#top, hi);
      return true;
    }
    const from = span === 0 ? lo : Math.min(lo, this.lo);
    const to = span === 0 ? hi : Math.max(hi, this.#top);
    if (to - from + 1 > limit) return false;
    // Keys that grow batch by batch (sorted input) would otherwise copy the array every batch: double it, or make
    // it the expected range and an eighth (an estimate), once.
    const need = to - from + 1;
    const size = expectSpan >= need ? expectSpan + (expectSpan >> 3) : Math.min(limit, Math.max(need, 2 * span));
    const ids = new Int32Array(size).fill(-1);
    // Only [lo, top] holds ids (the array may reach past it, and past the new size when the range moved down).
    if (span > 0) ids.set(this.ids.subarray(0, this.#top - this.lo + 1), this.lo - from);
    this.ids = ids;
    this.lo = from;
    this.#top = to;
    return true;
  }

  /** Keys in the range the keys seen so far cover: [lo, top]. */
  get usedSpan(): number {
    return this.ids.length === 0 ? 0 : this.#top - this.lo + 1;
  }
}
