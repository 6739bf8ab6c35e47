// `GroupKeys` assigns a dense group id to each distinct key tuple, through one dictionary per key column.
import type { Column } from '../../arrow/column.js';
import { valueReader } from './accumulators.js';

type Key = number | bigint | string | boolean;
const MAX_EXACT_BIG = 9007199254740991n;

/** Values of one key column, each distinct value (NULL included) given a code in first-seen order. */
class KeyDictionary {
  readonly #codes = new Map<Key, number>();
  readonly values: (Key | null)[] = [null];

  /** Codes of the column's rows; code 0 is NULL. */
  encode(col: Column, n: number): Int32Array {
    const read = valueReader(col);
    const out = new Int32Array(n);
    const codes = this.#codes;
    for (let i = 0; i < n; i++) {
      let v = read(i);
      if (v === null) continue;
      if (typeof v === 'bigint' && v <= MAX_EXACT_BIG && v >= -MAX_EXACT_BIG) v = Number(v);
      let c = codes.get(v);
      if (c === undefined) {
        c = this.values.length;
        codes.set(v, c);
        this.values.push(v);
      }
      out[i] = c;
    }
    return out;
  }
}

export class GroupKeys {
  readonly #dicts: KeyDictionary[];
  readonly #groups = new Map<number | string, number>();
  /** Per key column, the code of each group (index = group id). */
  readonly #groupCodes: number[][];

  constructor(keyCount: number) {
    this.#dicts = Array.from({ length: keyCount }, () => new KeyDictionary());
    this.#groupCodes = Array.from({ length: keyCount }, () => []);
  }

  get size(): number {
    return this.#groupCodes[0]?.length ?? 0;
  }

  /** Group ids of the rows of one batch, adding new groups as they appear. */
  assign(keys: readonly Column[], n: number): Int32Array {
    const codes = keys.map((k, c) => this.#dicts[c]!.encode(k, n));
    const out = new Int32Array(n);
    const k = codes.length;
    // Two keys pack into one number while each code stays below 2^26; more keys join as text.
    const packed = k === 1 || (k === 2 && this.#dicts.every((d) => d.values.length < 1 << 26));
    for (let i = 0; i < n; i++) {
      const key =
        k === 1 ? codes[0]![i]! : packed ? codes[0]![i]! * 67108864 + codes[1]![i]! : codes.map((c) => c[i]).join(',');
      let g = this.#groups.get(key);
      if (g === undefined) {
        g = this.size;
        this.#groups.set(key, g);
        for (let c = 0; c < k; c++) this.#groupCodes[c]!.push(codes[c]![i]!);
      }
      out[i] = g;
    }
    return out;
  }

  /** The key values of every group for key column `c`, in group order. */
  values(c: number): (Key | null)[] {
    const dict = this.#dicts[c]!.values;
    return this.#groupCodes[c]!.map((code) => dict[code]!);
  }
}
