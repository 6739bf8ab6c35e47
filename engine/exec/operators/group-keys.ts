// `GroupKeys` assigns a dense group id to each distinct key tuple (NULL is a key), in first-seen order.
import type { Column } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';

export class GroupKeys {
  readonly #index: KeyIndex;

  /** `types`: the declared type of each key column. */
  constructor(types: readonly DataType[]) {
    this.#index = makeKeyIndex(types, true);
  }

  get size(): number {
    return this.#index.size;
  }

  /** Group ids of the rows of one batch, adding new groups as they appear. */
  assign(keys: readonly Column[], n: number): Int32Array {
    return this.#index.insert(keys, n);
  }

  /** The key values of every group for key column `c`, in group order, as a column of `type`. */
  column(c: number, type: DataType): Column {
    return this.#index.column(c, type);
  }
}
