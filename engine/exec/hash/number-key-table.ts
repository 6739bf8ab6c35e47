// `NumberKeyTable`: the single-numeric-key hash table (most joins and GROUP BYs): keys live in a Float64Array.
import type { Column } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { hashNumber } from './hash-keys.js';
import { asKind, type NumberKeys, toKeyColumn } from './key-column.js';
import type { KeyIndex } from './key-index.js';
import { NumberStore } from './key-store.js';

const INITIAL_SLOTS = 64;

/** Slot s is `slots[2s]` = key, `slots[2s + 1]` = entry id (-1 = empty): one cache line per probe, not two. */
function emptySlots(count: number): Float64Array {
  const slots = new Float64Array(count * 2);
  for (let s = 1; s < slots.length; s += 2) slots[s] = -1;
  return slots;
}

/**
 * Linear probing over power-of-two slots holding the key and its entry id; grows at 50% load. NULL (when a
 * key) and int64 values beyond ±2^53 live outside the slots: they are rare.
 */
export class NumberKeyTable implements KeyIndex {
  readonly #nullsEqual: boolean;
  readonly #entries = new NumberStore();
  #slots = emptySlots(INITIAL_SLOTS);
  #mask = INITIAL_SLOTS - 1;
  #nullId = -1;
  #bigIds: Map<bigint, number> | null = null;

  constructor(nullsEqual: boolean) {
    this.#nullsEqual = nullsEqual;
  }

  get size(): number {
    return this.#entries.size;
  }

  insert(cols: readonly Column[], n: number): Int32Array {
    const { values, valid, big } = this.#keysOf(cols, n);
    const out = new Int32Array(n);
    const entries = this.#entries;
    let slots = this.#slots;
    let mask = this.#mask;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) {
        out[i] = this.#nullEntry(true);
        continue;
      }
      if (big?.has(i)) {
        out[i] = this.#bigEntry(big.get(i)!, true);
        continue;
      }
      const x = values[i]!;
      let s = (hashNumber(x) & mask) << 1;
      let id = slots[s + 1]!;
      while (id !== -1 && slots[s] !== x && !(Number.isNaN(x) && Number.isNaN(slots[s]!))) {
        s = (s + 2) & (2 * mask + 1);
        id = slots[s + 1]!;
      }
      if (id === -1) {
        id = entries.size;
        entries.push(x, true);
        slots[s] = x;
        slots[s + 1] = id;
        if (id * 2 >= mask) {
          // Growing moves every slot: continue on the new array.
          this.#grow();
          slots = this.#slots;
          mask = this.#mask;
        }
      }
      out[i] = id;
    }
    return out;
  }

  find(cols: readonly Column[], n: number): Int32Array {
    const { values, valid, big } = this.#keysOf(cols, n);
    const out = new Int32Array(n);
    const slots = this.#slots;
    const mask = this.#mask;
    const wrap = 2 * mask + 1;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) out[i] = this.#nullEntry(false);
      else if (big?.has(i)) out[i] = this.#bigEntry(big.get(i)!, false);
      else {
        const x = values[i]!;
        let s = (hashNumber(x) & mask) << 1;
        let id = slots[s + 1]!;
        while (id !== -1 && slots[s] !== x && !(Number.isNaN(x) && Number.isNaN(slots[s]!))) {
          s = (s + 2) & wrap;
          id = slots[s + 1]!;
        }
        out[i] = id;
      }
    }
    return out;
  }

  reserve(keys: number): void {
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

  /** Rehashes into `count` slots (default: twice as many). */
  #grow(count = (this.#mask + 1) * 2): void {
    const old = this.#slots;
    const slots = emptySlots(count);
    const mask = count - 1;
    const wrap = 2 * mask + 1;
    for (let s = 0; s < old.length; s += 2) {
      if (old[s + 1] === -1) continue;
      const x = old[s]!;
      let t = (hashNumber(x) & mask) << 1;
      while (slots[t + 1] !== -1) t = (t + 2) & wrap;
      slots[t] = x;
      slots[t + 1] = old[s + 1]!;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}
