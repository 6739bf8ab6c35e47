// `KeyTable`: open-addressing hash table (linear probing) from key tuples of any types to dense entry ids.
import type { Column } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { hashKeys } from './hash-keys.js';
import { asKind, type KeyColumn, toKeyColumn } from './key-column.js';
import type { KeyIndex } from './key-index.js';
import { KeyStore } from './key-store.js';

const INITIAL_SLOTS = 64;

/**
 * Entry ids are dense, in first-insertion order. A slot holds an entry id (-1 = empty) and the key's hash, so
 * probing compares keys only on a full hash match and growing never rehashes keys. Grows at 50% load.
 */
export class KeyTable implements KeyIndex {
  readonly #store: KeyStore;
  readonly #nullsEqual: boolean;
  #ids = new Int32Array(INITIAL_SLOTS).fill(-1);
  #hashes = new Int32Array(INITIAL_SLOTS);
  #mask = INITIAL_SLOTS - 1;

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
    const keys = cols.map((col, c) => asKind(toKeyColumn(col, n), kinds[c]!, n, this.#nullsEqual));
    const hashes = hashKeys(keys, n);
    const skip = this.#nullsEqual ? null : nullRows(keys, n);
    const store = this.#store;
    for (let i = 0; i < n; i++) {
      if (skip !== null && skip[i] === 1) {
        out[i] = -1;
        continue;
      }
      const h = hashes[i]!;
      const ids = this.#ids;
      const slotHashes = this.#hashes;
      const mask = this.#mask;
      let s = h & mask;
      let id = ids[s]!;
      while (id !== -1 && (slotHashes[s] !== h || !store.equals(id, keys, i))) {
        s = (s + 1) & mask;
        id = ids[s]!;
      }
      if (id === -1 && add) {
        id = store.size;
        store.append(keys, i);
        ids[s] = id;
        slotHashes[s] = h;
        if (id * 2 >= mask) this.#grow();
      }
      out[i] = id;
    }
    return out;
  }

  /** Rehashes into `slots` slots (default: twice as many). */
  #grow(slots = this.#ids.length * 2): void {
    const oldIds = this.#ids;
    const oldHashes = this.#hashes;
    const ids = new Int32Array(slots).fill(-1);
    const hashes = new Int32Array(slots);
    const mask = slots - 1;
    for (let s = 0; s < oldIds.length; s++) {
      const id = oldIds[s]!;
      if (id === -1) continue;
      const h = oldHashes[s]!;
      let t = h & mask;
      while (ids[t] !== -1) t = (t + 1) & mask;
      ids[t] = id;
      hashes[t] = h;
    }
    this.#ids = ids;
    this.#hashes = hashes;
    this.#mask = mask;
  }
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
