// `KeyColumn`: one key column of a batch in the two forms the hash tables read (numbers or UTF-8 bytes).
import { type Column, MAX_EXACT } from '../../arrow/column.js';
import { InternalError } from '../../errors.js';
import { int64Halves } from './int64-halves.js';

/**
 * Numeric keys (int32, date, bool, float64, timestamp, int64, decimal) as numbers. int64/decimal values beyond
 * ±2^53 cannot be numbers: their rows hold 0 in `values` and the exact value in `big` (row → bigint), so
 * Float64- and BigInt64-backed columns with the same values hash and compare alike.
 */
export interface NumberKeys {
  readonly kind: 'num';
  readonly values: Int32Array | Float64Array | Uint8Array;
  readonly valid: Uint8Array | null;
  readonly big: Map<number, bigint> | null;
}

/**
 * Text keys: the column's UTF-8 bytes when it has them (never decoded), else its JS strings (`strings`, with
 * `offsets`/`bytes` empty). Either form hashes and compares as UTF-8 bytes.
 */
export interface TextKeys {
  readonly kind: 'str';
  readonly strings: readonly string[] | null;
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
  readonly valid: Uint8Array | null;
}

/**
 * int64/decimal keys of a multi-column table as int32 halves (`int64Halves`): Float64- and BigInt64-backed batches
 * alike, no BigInt per row. `misfit` rows (not integers) equal no key.
 */
export interface Int64Keys {
  readonly kind: 'i64';
  readonly pairs: Int32Array;
  readonly misfit: Uint8Array | null;
  readonly valid: Uint8Array | null;
}

export type KeyColumn = NumberKeys | TextKeys | Int64Keys;

const NO_OFFSETS = new Int32Array(0);
const NO_BYTES = new Uint8Array(0);

/** The first `n` rows of `col` as hash-table keys; copies only BigInt64 values. */
export function toKeyColumn(col: Column, n: number): KeyColumn {
  const v = col.values;
  if (col.type.id === 'null' || v === null) {
    return { kind: 'num', values: new Uint8Array(n), valid: new Uint8Array(n), big: null };
  }
  if (Array.isArray(v))
    return { kind: 'str', strings: v as string[], offsets: NO_OFFSETS, bytes: NO_BYTES, valid: col.valid };
  if ('offsets' in v) return { kind: 'str', strings: null, offsets: v.offsets, bytes: v.bytes, valid: col.valid };
  if (v instanceof BigInt64Array) return bigKeys(v, col.valid, n);
  return { kind: 'num', values: v as Int32Array | Float64Array | Uint8Array, valid: col.valid, big: null };
}

/**
 * The first `n` rows of `col` as keys of `kind` (see `asKind` for a column of another kind); int64 halves of a
 * Float64-backed column go into `scratch` when it holds 2n entries.
 */
export function keyColumnAs(
  col: Column,
  n: number,
  kind: KeyColumn['kind'],
  nullsMatch: boolean,
  scratch: Int32Array | null = null,
): KeyColumn {
  if (kind !== 'i64') return asKind(toKeyColumn(col, n), kind, n, nullsMatch);
  const v = col.values;
  if (v === null || Array.isArray(v) || 'offsets' in v || col.type.id === 'null')
    return asKind(toKeyColumn(col, n), kind, n, nullsMatch);
  const { pairs, misfit } = int64Halves(col, n, scratch);
  return { kind, pairs, misfit, valid: col.valid };
}

/**
 * `k` as `kind`. A key of the other kind is a NULL literal's column (all NULL), or, when NULL keys never match
 * (`nullsMatch` false: joins), a value that cannot equal any key of the table; either way it becomes all NULLs.
 */
export function asKind(k: KeyColumn, kind: KeyColumn['kind'], n: number, nullsMatch: boolean): KeyColumn {
  if (k.kind === kind) return k;
  if (nullsMatch && (k.valid === null || k.valid.subarray(0, n).includes(1)))
    throw new InternalError('hash keys of different kinds');
  const valid = new Uint8Array(n);
  if (kind === 'num') return { kind, values: valid, valid, big: null };
  if (kind === 'i64') return { kind, pairs: new Int32Array(2 * n), misfit: null, valid };
  return { kind, strings: null, offsets: new Int32Array(n + 1), bytes: NO_BYTES, valid };
}

const MAX_BIG = BigInt(MAX_EXACT);

function bigKeys(v: BigInt64Array, valid: Uint8Array | null, n: number): NumberKeys {
  const values = new Float64Array(n);
  let big: Map<number, bigint> | null = null;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (x <= MAX_BIG && x >= -MAX_BIG) values[i] = Number(x);
    else if (valid === null || valid[i] === 1) {
      big ??= new Map();
      big.set(i, x);
    }
  }
  return { kind: 'num', values, valid, big };
}
