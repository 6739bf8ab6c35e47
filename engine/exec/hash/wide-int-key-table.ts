// `WideIntKeyTable`: one int64/decimal key: `NumberKeyTable` (direct arrays, number hashing) until a batch holds a
// value beyond ±2^53, then `Int64KeyTable` (the keys as int32 halves), with the keys so far moved over.
import type { Column } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { Int64KeyTable } from './int64-key-table.js';
import type { KeyIndex } from './key-index.js';
import { NumberKeyTable } from './number-key-table.js';

/**
 * Columns keep int64 values as doubles while every value is exact, else as a BigInt64Array: TPC-H's keys stay
 * numbers (and keep `NumberKeyTable`'s direct arrays), 63-bit ids and hashes come as bigints, which the number
 * table can only key through a `Map<bigint, number>`. The move inserts the number table's keys in id order, so
 * every id stays; it happens once.
 */
export class WideIntKeyTable implements KeyIndex {
  readonly #nullsEqual: boolean;
  readonly #type: DataType;
  #numbers: NumberKeyTable | null;
  #wide: Int64KeyTable | null = null;

  constructor(type: DataType, nullsEqual: boolean) {
    this.#type = type;
    this.#nullsEqual = nullsEqual;
    this.#numbers = new NumberKeyTable(nullsEqual);
  }

  get size(): number {
    return (this.#numbers ?? this.#wide!).size;
  }

  insert(cols: readonly Column[], n: number, out?: Int32Array): Int32Array {
    return this.#for(cols[0]!).insert(cols, n, out);
  }

  find(cols: readonly Column[], n: number, out?: Int32Array): Int32Array {
    return this.#for(cols[0]!).find(cols, n, out);
  }

  reserve(keys: number): void {
    (this.#numbers ?? this.#wide!).reserve(keys);
  }

  expectRows(rows: number): void {
    this.#numbers?.expectRows(rows);
  }

  column(c: number, type: DataType): Column {
    return (this.#numbers ?? this.#wide!).column(c, type);
  }

  /** The table for a batch of `col`: the wide one from the first BigInt64-backed batch on. */
  #for(col: Column): KeyIndex {
    const numbers = this.#numbers;
    if (numbers === null) return this.#wide!;
    if (!(col.values instanceof BigInt64Array)) return numbers;
    const wide = new Int64KeyTable(this.#nullsEqual);
    if (numbers.size > 0) {
      wide.reserve(numbers.size);
      wide.insert([numbers.column(0, this.#type)], numbers.size);
    }
    this.#wide = wide;
    this.#numbers = null;
    return wide;
  }
}
