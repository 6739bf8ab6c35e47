// `FilterExec` keeps rows where the predicate is true (not NULL); output order = input order. Conjuncts of the form
// `column op constant` over numbers run first, narrowing a selection vector (each sees only the rows still in);
// the rest of the predicate then runs on what is left.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import type { CmpOp } from '../../arrow/kernels/numeric.js';
import { selectCompare } from '../../arrow/kernels/select-compare.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { gatherColumns } from './gathered-column.js';

/** `batch.columns[column] op value`; `fallback` computes the same comparison when the column is not plain numbers. */
export interface CompareStep {
  readonly column: number;
  readonly op: CmpOp;
  readonly value: number;
  readonly fallback: PhysicalExpr;
}

export interface FilterSpec {
  readonly steps: readonly CompareStep[];
  /** The conjuncts that are not steps, as one predicate; null when every conjunct is a step. */
  readonly rest: PhysicalExpr | null;
  /** Whether `rest` can raise an error: it then only ever sees the rows the steps kept. */
  readonly restMayRaise: boolean;
}

export class FilterExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #spec: FilterSpec;

  constructor(input: PhysicalOperator, spec: FilterSpec) {
    this.#input = input;
    this.#spec = spec;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const out = this.#filter(batch);
      if (out !== null) yield out;
    }
  }

  /** The rows of `batch` that pass, or null when none does. */
  #filter(batch: Batch): Batch | null {
    const { steps, rest, restMayRaise } = this.#spec;
    const n = batch.length;
    let sel: Int32Array | null = null;
    let count = n;
    for (const step of steps) {
      const out: Int32Array = sel ?? new Int32Array(n);
      let k = selectCompare(step.op, batch.columns[step.column]!, step.value, sel, count, out);
      if (k < 0) k = selectByMask(step.fallback.evaluate(batch), sel, count, out);
      sel = out;
      count = k;
      if (count === 0) return null;
    }
    if (rest !== null) {
      if (sel === null) {
        const picked = selectTrue(rest.evaluate(batch));
        sel = picked.indices;
        count = picked.count;
      } else if (!restMayRaise && count * 2 > n) {
        count = selectByMask(rest.evaluate(batch), sel, count, sel);
      } else {
        // Few rows left (or the rest may raise on rows the steps dropped): evaluate it on those rows only.
        const sub = gatherBatch(batch, sel.subarray(0, count));
        const picked = selectTrue(rest.evaluate(sub));
        if (picked.count === sub.length) return sub;
        return picked.count === 0 ? null : gatherBatch(sub, picked.indices.subarray(0, picked.count));
      }
    }
    if (count === 0) return null;
    if (sel === null || count === n) return batch;
    return gatherBatch(batch, sel.subarray(0, count));
  }
}

/** The rows of `batch` at `rows`; a column is copied only when some operator reads it (a predicate's own text). */
function gatherBatch(batch: Batch, rows: Int32Array): Batch {
  return makeBatch(batch.schema, gatherColumns(batch.columns, rows, rows.length, false), rows.length);
}

/** The rows of `sel` (or 0..count) where the boolean `mask` is true, written to `out`; returns how many. */
function selectByMask(mask: Column, sel: Int32Array | null, count: number, out: Int32Array): number {
  const v = mask.values as Uint8Array | null;
  if (v === null) return 0;
  const valid = mask.valid;
  let k = 0;
  for (let j = 0; j < count; j++) {
    const i = sel === null ? j : (sel[j] as number);
    if (v[i] === 1 && (valid === null || valid[i] === 1)) out[k++] = i;
  }
  return k;
}
