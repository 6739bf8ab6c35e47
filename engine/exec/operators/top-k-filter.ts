// `candidateRows`: the rows of a batch whose first sort key sorts before, or ties, a TopK's K-th key (DuckDB's TopK
// boundary): the others cannot enter the TopK, so they are dropped before it buffers and sorts them.
import { type Column, decodedStrings, strings, utf8BytesOf } from '../../arrow/column.js';
import type { SortSpec } from '../../arrow/kernels/compare-rows.js';
import { compareText } from '../../arrow/kernels/text-order.js';
import { compareUtf8Range } from '../../arrow/kernels/utf8-compare.js';

const encoder = new TextEncoder();

/** The sign of row i's value against the bound's (both non-null), or null when the type is not handled. */
type AgainstBound = (i: number) => number;

/**
 * The rows of `col` that may still enter a TopK whose K-th row has key `kth` (row 0 of a one-row column of the same
 * type): those sorting before it or tying it (ties may win on a later key), in row order; null when every row may
 * (or the type is not handled here).
 */
export function candidateRows(col: Column, kth: Column, spec: SortSpec): Int32Array | null {
  const n = col.length;
  const valid = col.valid;
  if (kth.valid !== null && kth.valid[0] === 0) {
    // A NULL K-th key: with NULLS LAST every row sorts before or ties it; with NULLS FIRST only NULLs tie it.
    if (!spec.nullsFirst || valid === null) return spec.nullsFirst ? new Int32Array(0) : null;
    return select(n, (i) => valid[i] === 0);
  }
  const against = comparatorAgainst(col, kth);
  if (against === null) return null;
  const dir = spec.ascending ? 1 : -1;
  // A NULL row sorts before a value with NULLS FIRST, after it otherwise.
  const nullKept = spec.nullsFirst;
  if (valid === null) return select(n, (i) => dir * against(i) <= 0);
  return select(n, (i) => (valid[i] === 0 ? nullKept : dir * against(i) <= 0));
}

function select(n: number, keep: (i: number) => boolean): Int32Array | null {
  const out = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) if (keep(i)) out[k++] = i;
  return k === n ? null : out.subarray(0, k);
}

function comparatorAgainst(col: Column, kth: Column): AgainstBound | null {
  const v = col.values;
  if (v === null || kth.values === null) return null;
  if (col.type.id === 'utf8') {
    const bound = strings(kth)[0] as string;
    const held = decodedStrings(col) === null ? utf8BytesOf(col) : null;
    if (held === null) {
      const s = strings(col);
      return (i) => compareText(s[i] as string, bound);
    }
    const { offsets: o, bytes: b } = held;
    const bb = encoder.encode(bound);
    return (i) => compareUtf8Range(b, o[i]!, o[i + 1]!, bb, 0, bb.length);
  }
  if (col.type.id === 'interval' || typeof (kth.values as ArrayLike<unknown>)[0] === 'string') return null;
  // Numbers and bigints compare exactly with each other (an int64 column may be held either way per batch).
  const x = (kth.values as ArrayLike<number | bigint>)[0]!;
  const nums = v as ArrayLike<number | bigint>;
  if (col.type.id === 'float64') {
    // NaN sorts above every number (PostgreSQL).
    const xn = x as number;
    return (i) => {
      const a = nums[i] as number;
      if (a < xn) return -1;
      if (a > xn) return 1;
      if (a === xn) return 0;
      return Number.isNaN(a) ? (Number.isNaN(xn) ? 0 : 1) : -1;
    };
  }
  return (i) => {
    const a = nums[i]!;
    return a < x ? -1 : a > x ? 1 : 0;
  };
}
