// `JoinHashTable`: the build side's rows chained per join key; `keyReader` turns key columns into one hashable value.
import { type Column, strings } from '../../arrow/column.js';

export type JoinKey = number | string | bigint | boolean;

const MAX_EXACT_BIG = 9007199254740991n;
const SEP = '\u0001';

/** Reads row i's key (one value, or a text tuple for several columns); `null` when any part is NULL. */
export function keyReader(cols: readonly Column[]): (i: number) => JoinKey | null {
  const parts = cols.map(partReader);
  if (parts.length === 1) return parts[0]!;
  return (i) => {
    let key = '';
    for (let c = 0; c < parts.length; c++) {
      const v = parts[c]!(i);
      if (v === null) return null;
      key += c === 0 ? String(v) : SEP + String(v);
    }
    return key;
  };
}

function partReader(c: Column): (i: number) => JoinKey | null {
  if (c.type.id === 'null') return () => null;
  const valid = c.valid;
  if (c.type.id === 'utf8') {
    const s = strings(c);
    return valid === null ? (i) => s[i]! : (i) => (valid[i] === 0 ? null : s[i]!);
  }
  const v = c.values as ArrayLike<number | bigint>;
  if (v instanceof BigInt64Array) {
    // Values within ±2^53 hash as numbers, so a BigInt64-backed side meets a Float64-backed one.
    const read = (i: number): JoinKey => {
      const x = v[i] as bigint;
      return x <= MAX_EXACT_BIG && x >= -MAX_EXACT_BIG ? Number(x) : x;
    };
    return valid === null ? read : (i) => (valid[i] === 0 ? null : read(i));
  }
  return valid === null ? (i) => v[i] as number : (i) => (valid[i] === 0 ? null : (v[i] as number));
}

/** Build rows chained by key: `head` maps a key to its last row, `next[row]` to the previous row (-1 ends). */
export class JoinHashTable {
  readonly #head = new Map<JoinKey, number>();
  readonly next: Int32Array;
  /** Whether some build row has a NULL key (NOT IN needs to know). */
  readonly hasNullKey: boolean;

  constructor(keys: readonly Column[], rows: number) {
    this.next = new Int32Array(rows);
    const read = keyReader(keys);
    const head = this.#head;
    let hasNull = false;
    for (let i = 0; i < rows; i++) {
      const k = read(i);
      if (k === null) {
        hasNull = true;
        this.next[i] = -1;
        continue;
      }
      const h = head.get(k);
      this.next[i] = h === undefined ? -1 : h;
      head.set(k, i);
    }
    this.hasNullKey = hasNull;
  }

  /** The last build row with this key, or -1. */
  first(key: JoinKey): number {
    return this.#head.get(key) ?? -1;
  }
}
