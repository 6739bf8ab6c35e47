// `GroupKeys` assigns a dense group id to each distinct key tuple (NULL is a key), in first-seen order.
import { type Column, strings, utf8BytesOf } from '../../arrow/column.js';
import { take } from '../../arrow/kernels/take.js';
import type { DataType } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';
import { CodedGroupKeys } from './coded-group-keys.js';

/**
 * Picks its table on the first rows it sees: when some key is text and every text value there is at most two bytes
 * (flags and codes, as in TPC-H q1), `CodedGroupKeys`; otherwise a `KeyIndex`. Longer texts of few distinct values
 * (q16's brands and types) were measured slower coded than in a `KeyIndex`. Either table stays correct whatever
 * later batches hold.
 */
export class GroupKeys {
  readonly #types: readonly DataType[];
  #table: KeyIndex | CodedGroupKeys | null = null;

  /** `types`: the declared type of each key column. */
  constructor(types: readonly DataType[]) {
    this.#types = types;
  }

  get size(): number {
    return this.#table?.size ?? 0;
  }

  /**
   * Group ids of rows [0, n) of one batch, adding new groups as they appear. With `sel`, the rows are `sel[0..n)`
   * of whole-batch `keys` (a filter's survivors): coded keys read them in place, a `KeyIndex` gets them copied.
   */
  assign(keys: readonly Column[], n: number, sel: Int32Array | null = null): Int32Array {
    if (this.#table instanceof CodedGroupKeys) return this.#table.assign(keys, n, sel);
    const rows = sel === null ? keys : keys.map((k) => take(k, sel, n));
    if (this.#table === null) return n === 0 ? new Int32Array(0) : this.#first(rows, n);
    return this.#table.insert(rows, n);
  }

  /** The key values of every group for key column `c`, in group order, as a column of `type`. */
  column(c: number, type: DataType): Column {
    this.#table ??= makeKeyIndex(this.#types, true);
    return this.#table instanceof CodedGroupKeys ? this.#table.column(c) : this.#table.column(c, type);
  }

  /** Codes the first batch; if a text key has a value longer than two bytes there, starts over with a `KeyIndex`. */
  #first(keys: readonly Column[], n: number): Int32Array {
    // A long value in the first rows ends the coded attempt anyway: look before coding (q10's names and comments).
    if (this.#types.some((t) => t.id === 'utf8') && keys.every((k) => k.type.id !== 'utf8' || allShort(k, n))) {
      const coded = new CodedGroupKeys(this.#types);
      const ids = coded.assign(keys, n);
      if (coded.hasOnlyShortTexts()) {
        this.#table = coded;
        return ids;
      }
    }
    const table = makeKeyIndex(this.#types, true);
    this.#table = table;
    return table.insert(keys, n);
  }
}

/** Whether every value of rows [0, n) of a text column is at most two UTF-8 bytes (NULLs count as short). */
function allShort(col: Column, n: number): boolean {
  const bytes = utf8BytesOf(col);
  if (bytes !== null) {
    const offsets = bytes.offsets;
    for (let i = 0; i < n; i++) if (offsets[i + 1]! - offsets[i]! > 2) return false;
    return true;
  }
  // JS strings: two UTF-16 units may be up to six bytes; the coded table itself decides those exactly.
  const values = strings(col);
  for (let i = 0; i < n; i++) if (values[i]!.length > 2) return false;
  return true;
}
