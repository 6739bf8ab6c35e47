// `KeyStore`: the distinct keys of a hash table, one entry per key in insertion order, in growable typed arrays.
import { type Column, constantColumn, makeColumn } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { halvesColumn } from './int64-halves.js';
import type { Int64Keys, KeyColumn, NumberKeys, TextKeys } from './key-column.js';
import { grown, INITIAL_ENTRIES, validity } from './store-arrays.js';
import { TextStore } from './text-store.js';

/** One numeric key column's entries: numbers, with int64/decimal values beyond ±2^53 kept as bigints. */
export class NumberStore {
  values = new Float64Array(INITIAL_ENTRIES);
  valid = new Uint8Array(INITIAL_ENTRIES);
  big: Map<number, bigint> | null = null;
  size = 0;

  /** Appends row i of `k` (NULL included). */
  append(k: NumberKeys, i: number): void {
    if (k.valid !== null && k.valid[i] === 0) this.push(0, false);
    else if (k.big?.has(i)) this.pushBig(k.big.get(i)!);
    else this.push(k.values[i]!, true);
  }

  /** Makes room for `count` more entries at once (a build of known size), so pushing them copies nothing. */
  reserve(count: number): void {
    this.values = grown(this.values, this.size + count);
    this.valid = grown(this.valid, this.size + count);
  }

  push(x: number, valid: boolean): void {
    const id = this.size++;
    if (id === this.values.length) {
      this.values = grown(this.values, id + 1);
      this.valid = grown(this.valid, id + 1);
    }
    this.values[id] = x;
    this.valid[id] = valid ? 1 : 0;
  }

  pushBig(x: bigint): void {
    this.big ??= new Map();
    this.big.set(this.size, x);
    this.push(0, true);
  }

  /** Whether entry `id` equals row i of `k` (NULL equals NULL; NaN equals NaN). */
  equals(id: number, k: NumberKeys, i: number): boolean {
    const valid = k.valid === null || k.valid[i] === 1;
    if (valid !== (this.valid[id] === 1)) return false;
    if (!valid) return true;
    if (k.big !== null || this.big !== null) {
      const a = k.big?.get(i);
      const b = this.big?.get(id);
      if (a !== undefined || b !== undefined) return a === b;
    }
    const x = k.values[i]!;
    const y = this.values[id]!;
    return x === y || (Number.isNaN(x) && Number.isNaN(y));
  }

  /** Clears `eq[j]` where entry `ids[j]` differs from row `rows[j]` of `k` (j < count, only where eq[j] is 1). */
  narrow(k: NumberKeys, rows: Int32Array, ids: Int32Array, count: number, eq: Uint8Array): void {
    if (k.big !== null || this.big !== null) {
      for (let j = 0; j < count; j++) if (eq[j] === 1 && !this.equals(ids[j]!, k, rows[j]!)) eq[j] = 0;
      return;
    }
    const { values, valid } = k;
    const stored = this.values;
    const storedValid = this.valid;
    for (let j = 0; j < count; j++) {
      if (eq[j] === 0) continue;
      const i = rows[j]!;
      const id = ids[j]!;
      const v = valid === null ? 1 : valid[i]!;
      if (v !== storedValid[id]) eq[j] = 0;
      else if (v === 1) {
        const x = values[i]!;
        const y = stored[id]!;
        if (x !== y && !(Number.isNaN(x) && Number.isNaN(y))) eq[j] = 0;
      }
    }
  }

  /** The entries as a column of `type`. */
  column(type: DataType): Column {
    const n = this.size;
    const valid = validity(this.valid, n);
    if (valid !== null && !valid.includes(1)) return constantColumn(type, null, n);
    const v = this.values.subarray(0, n);
    switch (type.id) {
      case 'int32':
      case 'date':
        return makeColumn(type, Int32Array.from(v), valid, n);
      case 'bool':
        return makeColumn(type, Uint8Array.from(v), valid, n);
      case 'utf8':
      case 'null':
        return constantColumn(type, null, n);
      default:
        return makeColumn(type, this.big === null ? v.slice() : this.#bigValues(), valid, n);
    }
  }

  #bigValues(): BigInt64Array {
    const out = new BigInt64Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.big!.get(i) ?? BigInt(this.values[i]!);
    return out;
  }
}

/** One int64/decimal key column's entries as int32 halves (`int64Halves`). */
export class Int64Store {
  pairs = new Int32Array(2 * INITIAL_ENTRIES);
  valid = new Uint8Array(INITIAL_ENTRIES);
  size = 0;

  append(k: Int64Keys, i: number): void {
    const id = this.size++;
    this.pairs = grown(this.pairs, 2 * id + 2);
    this.valid = grown(this.valid, id + 1);
    if (k.valid !== null && k.valid[i] === 0) return;
    this.pairs[2 * id] = k.pairs[2 * i]!;
    this.pairs[2 * id + 1] = k.pairs[2 * i + 1]!;
    this.valid[id] = 1;
  }

  /** Clears `eq[j]` where entry `ids[j]` differs from row `rows[j]` of `k` (j < count, only where eq[j] is 1). */
  narrow(k: Int64Keys, rows: Int32Array, ids: Int32Array, count: number, eq: Uint8Array): void {
    const { pairs, valid, misfit } = k;
    const stored = this.pairs;
    const storedValid = this.valid;
    for (let j = 0; j < count; j++) {
      if (eq[j] === 0) continue;
      const i = rows[j]!;
      const id = ids[j]!;
      const v = valid === null ? 1 : valid[i]!;
      if (v !== storedValid[id]) eq[j] = 0;
      else if (v === 1) {
        if (pairs[2 * i] !== stored[2 * id] || pairs[2 * i + 1] !== stored[2 * id + 1]) eq[j] = 0;
        else if (misfit !== null && misfit[i] === 1) eq[j] = 0;
      }
    }
  }

  equals(id: number, k: Int64Keys, i: number): boolean {
    const valid = k.valid === null || k.valid[i] === 1;
    if (valid !== (this.valid[id] === 1)) return false;
    if (!valid) return true;
    return k.pairs[2 * i] === this.pairs[2 * id] && k.pairs[2 * i + 1] === this.pairs[2 * id + 1];
  }

  column(type: DataType): Column {
    const n = this.size;
    const valid = validity(this.valid, n);
    if (valid !== null && !valid.includes(1)) return constantColumn(type, null, n);
    return halvesColumn(type, this.pairs, valid, n);
  }
}

type ColumnStore = NumberStore | TextStore | Int64Store;

/** The entries of every key column of a multi-column table. */
export class KeyStore {
  readonly #cols: ColumnStore[];

  /** int64 and decimal columns are kept as int32 halves, text as UTF-8 bytes, other types as numbers. */
  constructor(types: readonly DataType[]) {
    this.#cols = types.map((t) =>
      t.id === 'utf8' ? new TextStore() : t.id === 'int64' || t.id === 'decimal' ? new Int64Store() : new NumberStore(),
    );
  }

  get size(): number {
    return this.#cols[0]?.size ?? 0;
  }

  /** The kind of each key column; keys passed in must have these kinds (see `asKind`). */
  get kinds(): readonly KeyColumn['kind'][] {
    return this.#cols.map((s) => (s instanceof NumberStore ? 'num' : s instanceof Int64Store ? 'i64' : 'str'));
  }

  append(keys: readonly KeyColumn[], i: number): void {
    for (let c = 0; c < keys.length; c++) {
      const s = this.#cols[c]!;
      const k = keys[c]!;
      if (s instanceof NumberStore) s.append(k as NumberKeys, i);
      else if (s instanceof Int64Store) s.append(k as Int64Keys, i);
      else s.append(k as TextKeys, i);
    }
  }

  /** Whether entry `id` equals row i of `keys`. */
  equals(id: number, keys: readonly KeyColumn[], i: number): boolean {
    for (let c = 0; c < keys.length; c++) {
      const s = this.#cols[c]!;
      const k = keys[c]!;
      if (
        s instanceof NumberStore
          ? !s.equals(id, k as NumberKeys, i)
          : s instanceof Int64Store
            ? !s.equals(id, k as Int64Keys, i)
            : !s.equals(id, k as TextKeys, i)
      )
        return false;
    }
    return true;
  }

  /**
   * Clears `eq[j]` where entry `ids[j]` differs from row `rows[j]` of `keys` (j < count), a column at a time: each
   * column's loop reads one kind of array.
   */
  narrow(keys: readonly KeyColumn[], rows: Int32Array, ids: Int32Array, count: number, eq: Uint8Array): void {
    for (let c = 0; c < keys.length; c++) {
      const s = this.#cols[c]!;
      const k = keys[c]!;
      if (s instanceof NumberStore) s.narrow(k as NumberKeys, rows, ids, count, eq);
      else if (s instanceof Int64Store) s.narrow(k as Int64Keys, rows, ids, count, eq);
      else s.narrow(k as TextKeys, rows, ids, count, eq);
    }
  }

  column(c: number, type: DataType): Column {
    return this.#cols[c]!.column(type);
  }
}
