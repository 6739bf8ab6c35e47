// `PairKeyTable`: a join on two int32 key columns (q9's ps_partkey, ps_suppkey) through the one-number table.
import { type Column, makeColumn } from '../../arrow/column.js';
import { type DataType, FLOAT64 } from '../../plan/types.js';
import type { KeyIndex } from './key-index.js';
import { KeyTable } from './key-table.js';
import { NumberKeyTable } from './number-key-table.js';

const TWO_32 = 2 ** 32;
/** a * 2^32 + (b >>> 0) is exact in a double while |a| < 2^21. */
const A_LIMIT = 2 ** 21;

/**
 * Packs each row's (a, b) into one double, a * 2^32 + (b as unsigned), and keeps them in a `NumberKeyTable`:
 * one hash and one comparison per row instead of the generic table's per-column hashing and equality. Joins
 * only (a NULL part means no match). A build batch with an `a` beyond ±2^21, or columns not held as Int32Array,
 * moves the keys so far into a `KeyTable` (decoded back from the packed keys, in id order, so the ids stay) and
 * the table carries on there. A probe row that cannot pack cannot match a packed key: its id is -1.
 */
export class PairKeyTable implements KeyIndex {
  readonly #types: readonly DataType[];
  #packed: NumberKeyTable | null = new NumberKeyTable(false);
  #generic: KeyTable | null = null;

  constructor(types: readonly DataType[]) {
    this.#types = types;
  }

  get size(): number {
    return this.#packed?.size ?? this.#generic!.size;
  }

  insert(cols: readonly Column[], n: number, out?: Int32Array): Int32Array {
    if (this.#packed !== null) {
      const packed = pack(cols, n);
      if (packed?.complete) return this.#packed.insert([packed.column], n, out);
      this.#toGeneric();
    }
    return this.#generic!.insert(cols, n, out);
  }

  find(cols: readonly Column[], n: number, out?: Int32Array): Int32Array {
    if (this.#packed === null) return this.#generic!.find(cols, n, out);
    const packed = pack(cols, n);
    // Columns not held as Int32Array: compare through the generic table's forms.
    if (packed === null) {
      this.#toGeneric();
      return this.#generic!.find(cols, n, out);
    }
    return this.#packed.find([packed.column], n, out);
  }

  reserve(keys: number): void {
    if (this.#packed !== null) this.#packed.reserve(keys);
    else this.#generic!.reserve(keys);
  }

  column(c: number, type: DataType): Column {
    if (this.#packed === null) return this.#generic!.column(c, type);
    const { a, b } = unpack(this.#packed);
    return makeColumn(type, c === 0 ? a : b, null, a.length);
  }

  #toGeneric(): void {
    const packed = this.#packed!;
    const generic = new KeyTable(this.#types, false);
    const { a, b } = unpack(packed);
    if (a.length > 0) {
      generic.insert(
        [makeColumn(this.#types[0]!, a, null, a.length), makeColumn(this.#types[1]!, b, null, b.length)],
        a.length,
      );
    }
    this.#generic = generic;
    this.#packed = null;
  }
}

/**
 * The rows' packed keys (NULL when either part is), `complete` false when some row's `a` is out of range (that
 * row is NULL here); null when a column is not held as Int32Array.
 */
function pack(cols: readonly Column[], n: number): { column: Column; complete: boolean } | null {
  const [x, y] = cols as [Column, Column];
  const a = x.values;
  const b = y.values;
  if (!(a instanceof Int32Array) || !(b instanceof Int32Array)) return null;
  const va = x.valid;
  const vb = y.valid;
  const out = new Float64Array(n);
  let valid: Uint8Array | null = null;
  if (va !== null || vb !== null) {
    valid = new Uint8Array(n);
    for (let i = 0; i < n; i++) valid[i] = (va === null ? 1 : va[i]!) & (vb === null ? 1 : vb[i]!);
  }
  let complete = true;
  for (let i = 0; i < n; i++) {
    const hi = a[i]!;
    if (hi >= A_LIMIT || hi < -A_LIMIT) {
      valid ??= new Uint8Array(n).fill(1);
      valid[i] = 0;
      complete = false;
      continue;
    }
    out[i] = hi * TWO_32 + (b[i]! >>> 0);
  }
  return { column: makeColumn(FLOAT64, out, valid, n), complete };
}

/** The table's keys in id order, split back into their two int32 parts. */
function unpack(table: NumberKeyTable): { a: Int32Array; b: Int32Array } {
  const keys = table.column(0, FLOAT64).values as Float64Array;
  const n = table.size;
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    const hi = Math.floor(k / TWO_32);
    a[i] = hi;
    b[i] = k - hi * TWO_32;
  }
  return { a, b };
}
