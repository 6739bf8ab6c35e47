// `CodedGroupKeys`: group ids from per-column codes combined pairwise, for keys of short texts (and numbers).
import type { Column } from '../../arrow/column.js';
import { take } from '../../arrow/kernels/take.js';
import type { DataType } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';
import { PairCodes } from './pair-codes.js';
import { TextCodes } from './text-codes.js';

/** Dense codes for one key column's distinct values (NULL included), in first-seen order. */
interface ColumnCodes {
  readonly size: number;
  /** Codes of rows [0, n), or of rows `sel[0..n)` when `sel` is given. */
  assign(col: Column, n: number, sel: Int32Array | null): Int32Array;
  /** The value of each code in `codes` (length n). */
  column(codes: Int32Array, n: number): Column;
}

/** A numeric key column's codes: the ids of a one-column `KeyIndex`. */
class NumberCodes implements ColumnCodes {
  readonly #index: KeyIndex;
  constructor(readonly type: DataType) {
    this.#index = makeKeyIndex([type], true);
  }
  get size(): number {
    return this.#index.size;
  }
  assign(col: Column, n: number, sel: Int32Array | null): Int32Array {
    return this.#index.insert([sel === null ? col : take(col, sel, n)], n);
  }
  column(codes: Int32Array, n: number): Column {
    return take(this.#index.column(0, this.type), codes, n);
  }
}

/**
 * Each key column maps its values to dense codes; the codes of columns 0 and 1 pair into ids (`PairCodes`), those
 * ids pair with column 2's codes, and so on: the last ids are the group ids, dense and in first-seen order like
 * `KeyIndex` ids. A text value of at most two bytes costs one array read (`TextCodes`), instead of hashing and
 * comparing every key column per row. Correct for any keys.
 */
export class CodedGroupKeys {
  readonly #columns: ColumnCodes[];
  readonly #pairs: PairCodes[];

  constructor(types: readonly DataType[]) {
    this.#columns = types.map((t) => (t.id === 'utf8' ? new TextCodes() : new NumberCodes(t)));
    this.#pairs = types.slice(1).map(() => new PairCodes());
  }

  get size(): number {
    return this.#pairs.at(-1)?.size ?? this.#columns[0]!.size;
  }

  /** Whether every text value so far was at most two bytes (each took one array read). */
  hasOnlyShortTexts(): boolean {
    return this.#columns.every((c) => !(c instanceof TextCodes) || !c.hasLong);
  }

  /** Group ids of rows [0, n) of `keys`, or of rows `sel[0..n)` when `sel` is given. */
  assign(keys: readonly Column[], n: number, sel: Int32Array | null = null): Int32Array {
    let ids = this.#columns[0]!.assign(keys[0]!, n, sel);
    for (let c = 1; c < keys.length; c++)
      ids = this.#pairs[c - 1]!.assign(ids, this.#columns[c]!.assign(keys[c]!, n, sel), n);
    return ids;
  }

  /** Key column `c` of every group, in group order. */
  column(c: number): Column {
    const n = this.size;
    const ids = new Int32Array(n);
    for (let g = 0; g < n; g++) ids[g] = g;
    // Walk the pairs down from the last: a pair id splits into the previous id (left) and a column's code (right).
    for (let p = this.#pairs.length - 1; p >= 0; p--) {
      const pair = this.#pairs[p]!;
      const side = p + 1 === c ? pair.right.values : pair.left.values;
      for (let g = 0; g < n; g++) ids[g] = side[ids[g]!]!;
      if (p + 1 === c) break;
    }
    return this.#columns[c]!.column(ids, n);
  }
}
