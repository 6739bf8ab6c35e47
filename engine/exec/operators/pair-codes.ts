// `PairCodes`: dense ids for distinct (a, b) pairs of small non-negative codes, in first-seen order.
import { makeColumn } from '../../arrow/column.js';
import { NotSupportedError } from '../../errors.js';
import { FLOAT64 } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';
import { GrowingInts } from './growing-ints.js';

/** Pairs of codes below this index a direct-mapped array (a * DIRECT_SIDE + b); others go to a hash table. */
const DIRECT_SIDE = 256;
/** Outside the direct range a pair is the number a * 2^26 + b, exact while both codes stay below 2^26. */
const PAIR_RADIX = 2 ** 26;

export class PairCodes {
  readonly #direct = new Int32Array(DIRECT_SIDE * DIRECT_SIDE).fill(-1);
  #table: KeyIndex | null = null;
  /** Per id in `#table`: the pair's id (-1 until assigned). */
  readonly #tableIds = new GrowingInts();
  /** The pair of each id. */
  readonly left = new GrowingInts();
  readonly right = new GrowingInts();

  get size(): number {
    return this.left.size;
  }

  /** The id of each pair (a[i], b[i]) for i in [0, n), adding ids for unseen pairs in row order. */
  assign(a: Int32Array, b: Int32Array, n: number): Int32Array {
    const direct = this.#direct;
    const out = new Int32Array(n);
    let tableIds: Int32Array | null = null;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const x = a[i]!;
      const y = b[i]!;
      if (x >= DIRECT_SIDE || y >= DIRECT_SIDE) {
        // The first wide pair: look up every wide pair of the batch at once, then carry on in row order.
        tableIds ??= this.#tableLookup(a, b, n);
        out[i] = this.#fromTable(tableIds[k++]!, x, y);
        continue;
      }
      const s = x * DIRECT_SIDE + y;
      let id = direct[s]!;
      if (id === -1) {
        id = this.#add(x, y);
        direct[s] = id;
      }
      out[i] = id;
    }
    return out;
  }

  #add(x: number, y: number): number {
    this.left.push(x);
    this.right.push(y);
    return this.left.size - 1;
  }

  /** Table ids of the wide pairs of rows [0, n), in row order, each pair as the number a * 2^26 + b. */
  #tableLookup(a: Int32Array, b: Int32Array, n: number): Int32Array {
    const keys: number[] = [];
    for (let i = 0; i < n; i++) {
      const x = a[i]!;
      const y = b[i]!;
      if (x < DIRECT_SIDE && y < DIRECT_SIDE) continue;
      if (x >= PAIR_RADIX || y >= PAIR_RADIX) throw new NotSupportedError('more than 2^26 distinct keys');
      keys.push(x * PAIR_RADIX + y);
    }
    this.#table ??= makeKeyIndex([FLOAT64], true);
    return this.#table.insert([makeColumn(FLOAT64, Float64Array.from(keys), null, keys.length)], keys.length);
  }

  #fromTable(t: number, x: number, y: number): number {
    const ids = this.#tableIds;
    while (ids.size <= t) ids.push(-1);
    let id = ids.values[t]!;
    if (id === -1) {
      id = this.#add(x, y);
      ids.values[t] = id;
    }
    return id;
  }
}
