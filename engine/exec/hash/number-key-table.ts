// `NumberKeyTable`: the single-numeric-key hash table (most joins and GROUP BYs): a direct array while the keys
// are integers filling much of their range, else open addressing with the keys in a Float64Array.
import type { Column } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { DirectIds, maxSpan } from './direct-ids.js';
import { hashNumber } from './hash-keys.js';
import { asKind, type NumberKeys, toKeyColumn } from './key-column.js';
import type { KeyIndex } from './key-index.js';
import { NumberStore } from './key-store.js';

const INITIAL_SLOTS = 64;

/**
 * A slot holds an entry id (-1 = empty); the key is the entry's, in the store. Four bytes a slot, not sixteen for
 * the key beside its id: the build of q03's 147k order keys took 3 ms instead of 10-14, its probes 55 ns instead of
 * 95 (a smaller table stays in cache, and a fresh one faults in fewer pages).
 */
function emptySlots(count: number): Int32Array {
  return new Int32Array(count).fill(-1);
}

/**
 * A build of known size may go direct over a range of up to `maxSpan` of its row count, counted up to this many
 * rows (a range of 4Mi ids, 16 MiB, at most). Judged by its first batch alone, a build's keys looked too sparse: q10
 * builds lineitem ⋈ orders' 115k rows by o_custkey, whose first batch of ~1.2k rows already spans most of 1..150k,
 * so it was hashed (insert 3.4, probe 2.2 ms a query); a 600 KiB direct array answers each key in one read.
 */
const EXPECTED_ROWS_CAP = 1 << 18;

/** Power-of-two slots for `keys` keys at most 25% full (room to grow before the next doubling). */
function slotsFor(keys: number): number {
  let count = INITIAL_SLOTS;
  while (count < keys * 4) count *= 2;
  return count;
}

/**
 * Starts with `DirectIds` and moves to linear probing over power-of-two slots of entry ids (grown at 50% load)
 * when a batch brings a fraction or widens the range too far; moves back when the hashed keys, at a doubling, fit
 * a direct range. NULL (when a key) and int64 values beyond ±2^53 live apart in either form: they are rare.
 */
export class NumberKeyTable implements KeyIndex {
  readonly #nullsEqual: boolean;
  readonly #entries = new NumberStore();
  /** The direct form, or null while hashed. */
  #direct: DirectIds | null = new DirectIds();
  /** Keys reserved for while direct (`reserve`): the slots' size when the table moves to hashing. */
  #reserved = 0;
  /** Rows the whole build will bring (`expectRows`, at most EXPECTED_ROWS_CAP), 0 when unknown. */
  #expectedRows = 0;
  #slots = emptySlots(0);
  #mask = -1;
  #nullId = -1;
  #bigIds: Map<bigint, number> | null = null;

  constructor(nullsEqual: boolean) {
    this.#nullsEqual = nullsEqual;
  }

  get size(): number {
    return this.#entries.size;
  }

  insert(cols: readonly Column[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    this.#insertRows(this.#keysOf(cols, n), 0, n, out);
    return out;
  }

  find(cols: readonly Column[], n: number, out: Int32Array = new Int32Array(n)): Int32Array {
    const keys = this.#keysOf(cols, n);
    if (this.#direct !== null) this.#findDirect(this.#direct, keys, n, out);
    else this.#findHashed(keys, n, out);
    return out;
  }

  expectRows(rows: number): void {
    this.#expectedRows = Math.min(rows, EXPECTED_ROWS_CAP);
  }

  reserve(keys: number): void {
    this.#entries.reserve(keys);
    if (this.#direct !== null) {
      // Kept for the move to slots, if the keys stop fitting a direct array: sized once, not by doublings.
      this.#reserved = Math.max(this.#reserved, this.#entries.size + keys);
      return;
    }
    let slots = this.#mask + 1;
    while ((this.#entries.size + keys) * 2 >= slots) slots *= 2;
    if (slots > this.#mask + 1) this.#grow(slots);
  }

  column(_c: number, type: DataType): Column {
    return this.#entries.column(type);
  }

  #keysOf(cols: readonly Column[], n: number): NumberKeys {
    return asKind(toKeyColumn(cols[0]!, n), 'num', n, this.#nullsEqual) as NumberKeys;
  }

  /** Ids of rows [from, n) of `keys` into `out`, adding unseen keys. */
  #insertRows(keys: NumberKeys, from: number, n: number, out: Int32Array): void {
    const direct = this.#direct;
    if (direct !== null) {
      // A build of known size (`reserve`) gets the range its keys are expected to reach at the density of the keys
      // so far, at once: a 6M-key order key range cost 73 MB of doublings in q21.
      const expectSpan =
        this.#reserved > this.size && this.size > 0
          ? Math.min(maxSpan(this.#reserved), Math.ceil((direct.usedSpan * this.#reserved) / this.size))
          : 0;
      const limit = maxSpan(Math.max(this.size, n, this.#expectedRows));
      if (keys.big === null && direct.cover(keys.values, keys.valid, from, n, limit, expectSpan)) {
        this.#insertDirect(direct, keys, from, n, out);
        return;
      }
      // Room for what was reserved while direct, at the load `reserve` keeps (under half): no doublings later.
      let count = slotsFor(this.size);
      while (this.#reserved * 2 >= count) count *= 2;
      this.#toSlots(count);
    }
    this.#insertHashed(keys, from, n, out);
  }

  /** Inserts rows [from, n) once `direct` covers them (so no row is a big value: `cover` saw none). */
  #insertDirect(direct: DirectIds, keys: NumberKeys, from: number, n: number, out: Int32Array): void {
    const { values, valid } = keys;
    const entries = this.#entries;
    const ids = direct.ids;
    const lo = direct.lo;
    for (let i = from; i < n; i++) {
      if (valid !== null && valid[i] === 0) {
        out[i] = this.#nullEntry(true);
        continue;
      }
      const x = values[i]!;
      let id = ids[x - lo]!;
      if (id === -1) {
        id = entries.size;
        entries.push(x, true);
        ids[x - lo] = id;
      }
      out[i] = id;
    }
  }

  #findDirect(direct: DirectIds, keys: NumberKeys, n: number, out: Int32Array): void {
    const { values, valid, big } = keys;
    const ids = direct.ids;
    const lo = direct.lo;
    const span = ids.length;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) out[i] = this.#nullEntry(false);
      else if (big?.has(i)) out[i] = this.#bigEntry(big.get(i)!, false);
      else {
        const d = values[i]! - lo;
        // `d | 0` drops fractions (and NaN); the range check keeps the read inside the array.
        out[i] = d >= 0 && d < span && (d | 0) === d ? ids[d]! : -1;
      }
    }
  }

  #insertHashed(keys: NumberKeys, from: number, n: number, out: Int32Array): void {
    const { values, valid, big } = keys;
    const entries = this.#entries;
    // Room for every row as a new entry: pushing moves no array, so `stored` stays the entries' values.
    entries.reserve(n - from);
    const stored = entries.values;
    let slots = this.#slots;
    let mask = this.#mask;
    for (let i = from; i < n; i++) {
      if (valid !== null && valid[i] === 0) {
        out[i] = this.#nullEntry(true);
        continue;
      }
      if (big?.has(i)) {
        out[i] = this.#bigEntry(big.get(i)!, true);
        continue;
      }
      const x = values[i]!;
      let s = hashNumber(x) & mask;
      let id = slots[s]!;
      while (id !== -1 && stored[id] !== x && !(Number.isNaN(x) && Number.isNaN(stored[id]!))) {
        s = (s + 1) & mask;
        id = slots[s]!;
      }
      if (id === -1) {
        id = entries.size;
        entries.push(x, true);
        slots[s] = id;
        if (id * 2 >= mask) {
          // Growing moves every slot (or leaves the slots for a direct array): continue on the new form.
          this.#grow();
          if (this.#direct !== null) {
            out[i] = id;
            this.#insertRows(keys, i + 1, n, out);
            return;
          }
          slots = this.#slots;
          mask = this.#mask;
        }
      }
      out[i] = id;
    }
  }

  #findHashed(keys: NumberKeys, n: number, out: Int32Array): void {
    const { values, valid, big } = keys;
    const stored = this.#entries.values;
    const slots = this.#slots;
    const mask = this.#mask;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) out[i] = this.#nullEntry(false);
      else if (big?.has(i)) out[i] = this.#bigEntry(big.get(i)!, false);
      else {
        const x = values[i]!;
        let s = hashNumber(x) & mask;
        let id = slots[s]!;
        while (id !== -1 && stored[id] !== x && !(Number.isNaN(x) && Number.isNaN(stored[id]!))) {
          s = (s + 1) & mask;
          id = slots[s]!;
        }
        out[i] = id;
      }
    }
  }

  #nullEntry(add: boolean): number {
    if (!this.#nullsEqual) return -1;
    if (this.#nullId === -1 && add) {
      this.#nullId = this.#entries.size;
      this.#entries.push(0, false);
    }
    return this.#nullId;
  }

  #bigEntry(x: bigint, add: boolean): number {
    let id = this.#bigIds?.get(x);
    if (id === undefined && add) {
      id = this.#entries.size;
      this.#entries.pushBig(x);
      this.#bigIds ??= new Map();
      this.#bigIds.set(x, id);
    }
    return id ?? -1;
  }

  /** Doubles the slots (or `count` of them), or moves to a direct array when the keys now fit one. */
  #grow(count = (this.#mask + 1) * 2): void {
    if (count === (this.#mask + 1) * 2 && this.#toDirect()) return;
    this.#toSlots(count);
  }

  /** Rehashes every numeric entry into `count` slots and drops the direct array. */
  #toSlots(count: number): void {
    const slots = emptySlots(count);
    const mask = count - 1;
    this.#forEachNumber((x, id) => {
      let t = hashNumber(x) & mask;
      while (slots[t] !== -1) t = (t + 1) & mask;
      slots[t] = id;
    });
    this.#slots = slots;
    this.#mask = mask;
    this.#direct = null;
  }

  /** Moves the numeric entries into a direct array if they are integers that fill enough of their range. */
  #toDirect(): boolean {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let integers = true;
    this.#forEachNumber((x) => {
      if (x !== Math.floor(x)) integers = false;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    });
    const direct = new DirectIds();
    if (!integers || lo > hi || !direct.widen(lo, hi, maxSpan(this.size))) return false;
    this.#forEachNumber((x, id) => {
      direct.ids[x - direct.lo] = id;
    });
    this.#direct = direct;
    this.#slots = emptySlots(0);
    this.#mask = -1;
    return true;
  }

  /** Every entry that is a number (not NULL, not a big value), with its id. */
  #forEachNumber(f: (x: number, id: number) => void): void {
    const e = this.#entries;
    for (let id = 0; id < e.size; id++) if (e.valid[id] === 1 && !e.big?.has(id)) f(e.values[id]!, id);
  }
}
