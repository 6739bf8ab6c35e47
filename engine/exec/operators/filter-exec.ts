// `FilterExec` keeps rows where the predicate is true (not NULL); output order = input order. Conjuncts of the form
// `column op constant` over numbers, `column op column` over one numeric type and `text [NOT] IN / = / <> literals`
// run first, narrowing a selection vector (each sees only the rows still in); the rest of the predicate then runs on
// what is left.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { gatherColumns, gatheredFrom } from '../../arrow/gathered-column.js';
import type { CmpOp } from '../../arrow/kernels/numeric.js';
import {
  type LowerOp,
  selectBetween,
  selectCompare,
  selectCompareColumns,
  selectInTable,
  type UpperOp,
} from '../../arrow/kernels/select-compare.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import { selectUtf8Literals } from '../expr/utf8-match.js';
import type { PhysicalOperator } from '../operator.js';
import { ScratchInts } from './scratch-ints.js';

/**
 * `batch.columns[column] op value`, and `column upper.op upper.value` when `upper` is set (a range tested in one
 * pass: `op` is then `>` or `>=`); `fallback` computes the same predicate when the column is not plain numbers.
 */
export interface CompareStep {
  readonly kind: 'compare';
  readonly column: number;
  readonly op: CmpOp;
  readonly value: number;
  readonly upper: { readonly op: UpperOp; readonly value: number } | null;
  readonly fallback: PhysicalExpr;
}

/** `batch.columns[left] op batch.columns[right]`, two columns of one numeric type (not floats: NaN orders apart). */
export interface ColumnsStep {
  readonly kind: 'columns';
  readonly left: number;
  readonly op: CmpOp;
  readonly right: number;
  readonly fallback: PhysicalExpr;
}

/**
 * A text column equal to one of `literals` (to none of them when `negated`): `=`, `<>`, `IN`, `NOT IN`; with
 * `prefix`, the column's first `prefix` characters (`substring(x, 1, prefix)`, every literal that many ASCII bytes).
 */
export interface TextStep {
  readonly kind: 'text';
  readonly column: number;
  readonly literals: readonly string[];
  readonly negated: boolean;
  readonly prefix: number | null;
  readonly fallback: PhysicalExpr;
}

/** A number column equal to one of a few integers (to none when `negated`): `table[value - lo]` is 1 for each. */
export interface InTableStep {
  readonly kind: 'in-table';
  readonly column: number;
  readonly lo: number;
  readonly table: Uint8Array;
  readonly negated: boolean;
  readonly fallback: PhysicalExpr;
}

export type FilterStep = CompareStep | ColumnsStep | TextStep | InTableStep;

export interface FilterSpec {
  readonly steps: readonly FilterStep[];
  /** The conjuncts that are not steps, as one predicate; null when every conjunct is a step. */
  readonly rest: PhysicalExpr | null;
  /** Whether `rest` can raise an error: it then only ever sees the rows the steps kept. */
  readonly restMayRaise: boolean;
}

export class FilterExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #spec: FilterSpec;
  /** Per step, the share of rows it kept in the last batch: decides its next loop (a hint; starts at a half). */
  readonly #kept: Float64Array;

  constructor(input: PhysicalOperator, spec: FilterSpec) {
    this.#input = input;
    this.#spec = spec;
    this.schema = input.schema;
    this.#kept = new Float64Array(spec.steps.length).fill(0.5);
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const out = this.#filter(batch);
      if (out !== null) yield out;
    }
  }

  /**
   * For a consumer that reads rows through a selection instead of copied columns (an aggregate right above):
   * each input batch with the rows that pass, `sel` null when every row does. Batches with no survivor are
   * skipped. `sel` is only valid until the next batch is asked for. Only when `selectable` (no part of the
   * predicate that may raise is left to run on the survivors only).
   */
  async *selections(ctx: ExecContext): AsyncIterable<{ batch: Batch; sel: Int32Array | null; count: number }> {
    // The selection outlives this call (the consumer reads it after an await, when another query on the thread
    // may have run a filter), so it gets a buffer of its own, reused from batch to batch of this query.
    let own = new Int32Array(0);
    const buffer = (n: number) => {
      if (own.length < n) own = new Int32Array(n);
      return own;
    };
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const n = batch.length;
      const { sel, count } = this.#select(batch, buffer);
      if (count === 0) continue;
      yield { batch, sel: count === n ? null : sel, count };
    }
  }

  /** Whether `selections` may be used: the steps and the rest can run over every row of a batch. */
  get selectable(): boolean {
    return this.#spec.rest === null || !this.#spec.restMayRaise;
  }

  /** The rows of `batch` that pass, as a selection (null = all n) and a count; never evaluates on a sub-batch. */
  #select(batch: Batch, buffer: (n: number) => Int32Array): { sel: Int32Array | null; count: number } {
    let { sel, count } = this.#steps(batch, buffer);
    const rest = this.#spec.rest;
    if (rest !== null && count > 0) {
      const out: Int32Array = sel ?? buffer(batch.length);
      count = selectByMask(rest.evaluate(batch), sel, count, out);
      sel = out;
    }
    return { sel, count };
  }

  /** The rows the `column op number` steps keep, narrowing one selection step after step (null = all rows). */
  #steps(
    batch: Batch,
    buffer: (n: number) => Int32Array,
    from: Int32Array | null = null,
  ): { sel: Int32Array | null; count: number } {
    const n = batch.length;
    // `from`: start from these rows (in `buffer`), not from every row.
    let sel: Int32Array | null = from;
    let count = from === null ? n : from.length;
    const steps = this.#spec.steps;
    const kept = this.#kept;
    for (let s = 0; s < steps.length; s++) {
      const step = steps[s]!;
      const out: Int32Array = sel === null ? buffer(n) : sel;
      const branchless = kept[s]! > 0.03 && kept[s]! < 0.97;
      let k = runStep(step, batch, sel, count, out, branchless);
      if (k < 0) k = selectByMask(step.fallback.evaluate(batch), sel, count, out);
      kept[s] = k / count;
      sel = out;
      count = k;
      if (count === 0) break;
    }
    return { sel, count };
  }

  /** The rows of `batch` that pass, or null when none does. */
  #filter(batch: Batch): Batch | null {
    const { rest, restMayRaise } = this.#spec;
    const n = batch.length;
    const gathered = rest === null ? gatheredBatch(batch) : null;
    if (gathered !== null) {
      // Every column picks the same rows of one batch (a dynamic join filter's output): the steps narrow those
      // row numbers over the source columns, so a column is never copied just to be compared (Q4's dates, Q10's
      // return flag) and the survivors are gathered once from the sources.
      const from = scratchSelection(n).subarray(0, n);
      from.set(gathered.indices.subarray(0, n));
      const { sel, count } = this.#steps(gathered.source, scratchSelection, from);
      if (count === n) return batch;
      return count === 0 || sel === null ? null : gatherBatch(gathered.source, sel.subarray(0, count));
    }
    let { sel, count } = this.#steps(batch, scratchSelection);
    if (count === 0) return null;
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

/** One step over the rows of `sel` (or 0..count): the rows kept, or -1 when its columns are not held plainly. */
function runStep(
  step: FilterStep,
  batch: Batch,
  sel: Int32Array | null,
  count: number,
  out: Int32Array,
  branchless: boolean,
): number {
  const cols = batch.columns;
  if (step.kind === 'columns')
    return selectCompareColumns(step.op, cols[step.left]!, cols[step.right]!, sel, count, out, branchless);
  if (step.kind === 'text')
    return selectUtf8Literals(cols[step.column]!, step.literals, step.negated, sel, count, out, step.prefix);
  if (step.kind === 'in-table')
    return selectInTable(cols[step.column]!, step.lo, step.table, step.negated, sel, count, out, branchless);
  const col = cols[step.column]!;
  const upper = step.upper;
  return upper === null
    ? selectCompare(step.op, col, step.value, sel, count, out, branchless)
    : selectBetween(step.op as LowerOp, step.value, upper.op, upper.value, col, sel, count, out, branchless);
}

/**
 * The selection lives only while `#filter` runs (synchronously), so one buffer serves every filter of the thread:
 * a fresh 256 KiB array per batch cost more than the comparisons on selective filters such as point lookups
 * (allocation, zeroing and GC of large backing stores). Gathered columns keep their indices, so `gatherBatch`
 * copies a selection out of it first.
 */
const SELECTION = new ScratchInts();
const scratchSelection = (n: number): Int32Array => SELECTION.take(n);

/**
 * The batch whose columns `batch`'s columns all gather, by one index array and without NULL padding, or null:
 * then row i of `batch` is row indices[i] of the source.
 */
function gatheredBatch(batch: Batch): { source: Batch; indices: Int32Array } | null {
  const sources: Column[] = [];
  let indices: Int32Array | null = null;
  for (const col of batch.columns) {
    const g = gatheredFrom(col);
    if (g === null || g.padded || (indices !== null && g.indices !== indices)) return null;
    indices = g.indices;
    sources.push(g.source);
  }
  if (indices === null) return null;
  const length = sources.reduce((m, c) => Math.max(m, c.length), 0);
  return { source: makeBatch(batch.schema, sources, length), indices };
}

/** The rows of `batch` at `rows`; a column is copied only when some operator reads it (a predicate's own text). */
function gatherBatch(batch: Batch, rows: Int32Array): Batch {
  const own = SELECTION.owns(rows) ? rows.slice() : rows;
  return makeBatch(batch.schema, gatherColumns(batch.columns, own, own.length, false), own.length);
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
