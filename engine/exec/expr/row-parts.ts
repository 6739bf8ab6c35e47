// Row subsets of a batch for expressions that evaluate each operand only on the rows still undecided (CASE,
// COALESCE): the subsets, and the result assembled from the parts each operand produced.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { type Column, emptyValues, makeColumn, strings } from '../../arrow/column.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import type { DataType } from '../../plan/types.js';

/** `src` was evaluated over rows `rows` of the batch; its row `local[i]` is the result's row `rows[local[i]]`. */
export interface Part {
  readonly src: Column;
  readonly rows: Int32Array;
  readonly local: Int32Array;
}

/**
 * The result column written from `parts` in order (a later part overwrites an earlier one's rows); rows no part
 * covers are NULL. An int64 part beyond 2^53 (BigInt64Array) makes the whole result BigInt64Array.
 */
export function assemble(parts: readonly Part[], type: DataType, n: number): Column {
  const big = parts.some((p) => p.src.values instanceof BigInt64Array);
  const out = makeColumn(type, big ? new BigInt64Array(n) : emptyValues(type, n), new Uint8Array(n), n);
  for (const p of parts) scatter(out, p.src, p.rows, p.local);
  return out;
}

export function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** Rows `idx` of `b`, each column copied only if an arm reads it (a join's late columns are read from their source). */
export function subset(b: Batch, idx: Int32Array): Batch {
  if (idx.length === b.length) return b;
  return makeBatch(b.schema, gatherColumns(b.columns, idx, idx.length, false), idx.length);
}

export function pick(rows: Int32Array, idx: Int32Array): Int32Array {
  const out = new Int32Array(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = rows[idx[i] as number] as number;
  return out;
}

export function complement(sorted: Int32Array, count: number, n: number): Int32Array {
  const out = new Int32Array(n - count);
  let j = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (j < count && sorted[j] === i) j++;
    else out[k++] = i;
  }
  return out;
}

/** out[rows[local[i]]] = src[i] for each i. */
function scatter(out: Column, src: Column, rows: Int32Array, local: Int32Array): void {
  const valid = out.valid as Uint8Array;
  const target = out.values as { [i: number]: unknown } | null;
  const values = src.type.id === 'utf8' ? strings(src) : (src.values as unknown as { [i: number]: unknown } | null);
  const big = out.values instanceof BigInt64Array;
  for (let i = 0; i < local.length; i++) {
    const row = rows[local[i] as number] as number;
    const ok = src.type.id !== 'null' && (src.valid === null || src.valid[i] === 1);
    valid[row] = ok ? 1 : 0;
    if (!ok || !target || !values) continue;
    const v = values[i];
    // Into a BigInt64Array (some arm was int64 beyond 2^53) numbers become BigInt; elsewhere BigInts are exact.
    target[row] = big ? (typeof v === 'bigint' ? v : BigInt(v as number)) : typeof v === 'bigint' ? Number(v) : v;
  }
}
