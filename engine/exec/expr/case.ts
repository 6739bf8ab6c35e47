// CASE: each arm is evaluated only on the rows still undecided, so an error in an untaken arm never fires (arms
// that cannot raise, over numbers, run over every row and are picked per row).
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { type Column, emptyValues, makeColumn, strings } from '../../arrow/column.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import type { CaseExpr, Expr } from '../../plan/expr/index.js';
import type { DataType, Schema } from '../../plan/types.js';
import type { PhysicalExpr } from './physical-expr.js';
import { mayRaiseOnRows } from './short-circuit.js';

type Compile = (e: Expr, schema: Schema) => PhysicalExpr;

export function evaluateCase(e: CaseExpr, schema: Schema, compile: Compile): PhysicalExpr {
  const whens = e.whens.map((w) => ({ when: compile(w.when, schema), result: compile(w.result, schema) }));
  const otherwise = e.otherwise ? compile(e.otherwise, schema) : null;
  const general = generalCase(e, whens, otherwise);
  const arm = whens[0];
  // `CASE WHEN c THEN x ELSE y END` over numbers whose arms cannot raise: both arms over every row, then one pass
  // picks (Q14's and Q8's sums of a share: x is often computed for another aggregate anyway, a shared
  // subexpression; picking arms row by row cost more than x itself).
  if (
    whens.length !== 1 ||
    otherwise === null ||
    !NUMERIC_STORAGE.has(e.type.id) ||
    mayRaiseOnRows(e.whens[0]!.result) ||
    mayRaiseOnRows(e.otherwise!)
  )
    return general;
  return {
    evaluate(batch) {
      const cond = arm!.when.evaluate(batch);
      const picked = pickArms(cond, arm!.result.evaluate(batch), otherwise.evaluate(batch), e.type, batch.length);
      return picked ?? general.evaluate(batch);
    },
  };
}

/** Types held as Float64Array or Int32Array (decimals while exact): the ones `pickArms` handles. */
const NUMERIC_STORAGE = new Set(['int32', 'int64', 'float64', 'decimal', 'date']);

/**
 * Per row, `then` where `cond` is true and `otherwise` elsewhere (NULL conditions count as false), when both arms
 * hold one kind of typed array; null otherwise (BigInt64Array decimals, JS values).
 */
function pickArms(cond: Column, then: Column, otherwise: Column, type: DataType, n: number): Column | null {
  const t = then.values;
  const o = otherwise.values;
  const c = cond.values as Uint8Array | null;
  if (
    c === null ||
    !((t instanceof Float64Array && o instanceof Float64Array) || (t instanceof Int32Array && o instanceof Int32Array))
  )
    return null;
  const cv = cond.valid;
  const tv = then.valid;
  const ov = otherwise.valid;
  const values = t instanceof Float64Array ? new Float64Array(n) : new Int32Array(n);
  const valid = tv === null && ov === null ? null : new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const take = c[i]! & (cv === null ? 1 : cv[i]!);
    values[i] = take === 1 ? t[i]! : o[i]!;
    if (valid !== null) valid[i] = take === 1 ? (tv === null ? 1 : tv[i]!) : ov === null ? 1 : ov[i]!;
  }
  return makeColumn(type, values, valid, n);
}

function generalCase(
  e: CaseExpr,
  whens: readonly { when: PhysicalExpr; result: PhysicalExpr }[],
  otherwise: PhysicalExpr | null,
): PhysicalExpr {
  return {
    evaluate(batch) {
      const n = batch.length;
      // Each arm's values and the rows they go to, written once all are known: an int64 arm beyond 2^53
      // (BigInt64Array) makes the whole result BigInt64Array.
      const parts: { src: Column; rows: Int32Array; local: Int32Array }[] = [];
      let rows = identity(n);
      let current: Batch = batch;
      for (const arm of whens) {
        if (rows.length === 0) break;
        const cond = arm.when.evaluate(current);
        const { indices, count } = selectTrue(cond);
        if (count > 0) {
          const hit = indices.subarray(0, count);
          parts.push({ src: arm.result.evaluate(subset(current, hit)), rows, local: hit });
        }
        const miss = complement(indices, count, rows.length);
        rows = pick(rows, miss);
        current = subset(current, miss);
      }
      if (otherwise && rows.length > 0)
        parts.push({ src: otherwise.evaluate(current), rows, local: identity(rows.length) });
      const big = parts.some((p) => p.src.values instanceof BigInt64Array);
      const out = makeColumn(e.type, big ? new BigInt64Array(n) : emptyValues(e.type, n), new Uint8Array(n), n);
      for (const p of parts) scatter(out, p.src, p.rows, p.local);
      return out;
    },
  };
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** Rows `idx` of `b`, each column copied only if an arm reads it (a join's late columns are read from their source). */
function subset(b: Batch, idx: Int32Array): Batch {
  if (idx.length === b.length) return b;
  return makeBatch(b.schema, gatherColumns(b.columns, idx, idx.length, false), idx.length);
}

function pick(rows: Int32Array, idx: Int32Array): Int32Array {
  const out = new Int32Array(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = rows[idx[i] as number] as number;
  return out;
}

function complement(sorted: Int32Array, count: number, n: number): Int32Array {
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
