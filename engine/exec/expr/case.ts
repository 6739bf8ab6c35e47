// CASE: each arm is evaluated only on the rows still undecided, so an error in an untaken arm never fires.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { type Column, emptyValues, makeColumn, strings } from '../../arrow/column.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import type { CaseExpr, Expr } from '../../plan/expr/index.js';
import type { Schema } from '../../plan/types.js';
import type { PhysicalExpr } from './physical-expr.js';

type Compile = (e: Expr, schema: Schema) => PhysicalExpr;

export function evaluateCase(e: CaseExpr, schema: Schema, compile: Compile): PhysicalExpr {
  const whens = e.whens.map((w) => ({ when: compile(w.when, schema), result: compile(w.result, schema) }));
  const otherwise = e.otherwise ? compile(e.otherwise, schema) : null;
  return {
    evaluate(batch) {
      const n = batch.length;
      const out = makeColumn(e.type, emptyValues(e.type, n), new Uint8Array(n), n);
      let rows = identity(n);
      let current: Batch = batch;
      for (const arm of whens) {
        if (rows.length === 0) break;
        const cond = arm.when.evaluate(current);
        const { indices, count } = selectTrue(cond);
        if (count > 0) {
          const hit = indices.subarray(0, count);
          scatter(out, arm.result.evaluate(subset(current, hit)), rows, hit);
        }
        const miss = complement(indices, count, rows.length);
        rows = pick(rows, miss);
        current = subset(current, miss);
      }
      if (otherwise && rows.length > 0) scatter(out, otherwise.evaluate(current), rows, identity(rows.length));
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
  for (let i = 0; i < local.length; i++) {
    const row = rows[local[i] as number] as number;
    const ok = src.type.id !== 'null' && (src.valid === null || src.valid[i] === 1);
    valid[row] = ok ? 1 : 0;
    if (ok && target && values) target[row] = typeof values[i] === 'bigint' ? Number(values[i]) : values[i];
  }
}
