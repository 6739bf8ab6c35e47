// `NumberKeyTable`: the single-numeric-key hash table (most joins and GROUP BYs): keys live in a Float64Array.
import type { Column } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { hashNumber } from './hash-keys.js';
import { asKind, type NumberKeys, toKeyColumn } from './key-column.js';
import type { KeyIndex } from './key-index.js';
import { NumberStore } from './key-store.js';

const INITIAL_SLOTS = 64;

/**
 * Linear probing over power-of-two slots holding the key and its entry id (-1 = empty); grows at 50% load.
 * NULL (when a key) and int64 values beyond ±2^53 live outside the slots: they are rare.
 */
export class NumberKeyTable implements KeyIndex {
  readonly #nullsEqual: boolean;
  readonly #entries = new NumberStore();
  #keys = new Float64Array(INITIAL_SLOTS);
  #ids = new Int32Array(INITIAL_SLOTS).fill(-1);
  #mask = INITIAL_SLOTS - 1;
  #used = 0;
  #nullId = -1;
  #bigIds: Map<bigint, number> | null = null;

  constructor(nullsEqual: boolean) {
    this.#nullsEqual = nullsEqual;
  }

  get size(): number {
    return this.#entries.size;
  }

  insert(cols: readonly Column[], n: number): Int32Array {
    const k = asKind(toKeyColumn(cols[0]!, n), 'num', n, this.#nullsEqual) as NumberKeys;
    const out = new Int32Array(n);
    const { values, valid, big } = k;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) out[i] = this.#nullEntry(true);
      else if (big?.has(i)) out[i] = this.#bigEntry(big.get(i)!, true);
      else out[i] = this.#insertNumber(values[i]!);
    }
    return out;
  }

  find(cols: readonly Column[], n: number): Int32Array {
    const k = asKind(toKeyColumn(cols[0]!, n), 'num', n, this.#nullsEqual) as NumberKeys;
    const out = new Int32Array(n);
    const { values, valid, big } = k;
    const keys = this.#keys;
    const ids = this.#ids;
    const mask = this.#mask;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) out[i] = this.#nullEntry(false);
      else if (big?.has(i)) out[i] = this.#bigEntry(big.get(i)!, false);
      else {
        const x = values[i]!;
        let s = hashNumber(x) & mask;
        let id = ids[s]!;
        while (id !== -1 && keys[s] !== x && !(Number.isNaN(x) && Number.isNaN(keys[s]!))) {
          s = (s + 1) & mask;
          id = ids[s]!;
        }
        out[i] = id;
      }
    }
    return out;
  }

  column(_c: number, type: DataType): Column {
    return this.#entries.column(type);
  }

  #insertNumber(x: number): number {
    const keys = this.#keys;
    const ids = this.#ids;
    const mask = this.#mask;
    let s = hashNumber(x) & mask;
    let id = ids[s]!;
    while (id !== -1) {
      const y = keys[s]!;
      if (y === x || (Number.isNaN(x) && Number.isNaN(y))) return id;
      s = (s + 1) & mask;
      id = ids[s]!;
    }
    id = this.#entries.size;
    this.#entries.push(x, true);
    keys[s] = x;
    ids[s] = id;
    if (++this.#used * 2 > mask) this.#grow();
    return id;
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

  #grow(): void {
    const oldKeys = this.#keys;
    const oldIds = this.#ids;
    const slots = oldIds.length * 2;
    const keys = new Float64Array(slots);
    const ids = new Int32Array(slots).fill(-1);
    const mask = slots - 1;
    for (let s = 0; s < oldIds.length; s++) {
      const id = oldIds[s]!;
      if (id === -1) continue;
      const x = oldKeys[s]!;
      let t = hashNumber(x) & mask;
      while (ids[t] !== -1) t = (t + 1) & mask;
      keys[t] = x;
      ids[t] = id;
    }
    this.#keys = keys;
    this.#ids = ids;
    this.#mask = mask;
  }
}
