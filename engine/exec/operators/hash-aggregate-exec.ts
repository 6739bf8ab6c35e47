// `HashAggregateExec` groups rows by key and folds each aggregate per group; output = groups in first-seen order.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { selectTrue, take } from '../../arrow/kernels/take.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { type Accumulator, columnFromValues, makeAccumulator } from './accumulators.js';
import { GroupKeys } from './group-keys.js';

export interface PhysicalAggregate {
  readonly call: AggregateCall;
  readonly arg: PhysicalExpr | null;
  /** The call's arguments after the first (string_agg's separator and ORDER BY keys). */
  readonly extra?: readonly PhysicalExpr[];
  readonly filter: PhysicalExpr | null;
}

export class HashAggregateExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #groupBy: readonly PhysicalExpr[];
  readonly #aggregates: readonly PhysicalAggregate[];

  constructor(
    input: PhysicalOperator,
    groupBy: readonly PhysicalExpr[],
    aggregates: readonly PhysicalAggregate[],
    schema: Schema,
  ) {
    this.#input = input;
    this.#groupBy = groupBy;
    this.#aggregates = aggregates;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const keys = new GroupKeys(this.#groupBy.length);
    const accs: Accumulator[] = this.#aggregates.map((a) => makeAccumulator(a.call));
    const global = this.#groupBy.length === 0;
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const n = batch.length;
      const groups = global
        ? new Int32Array(n)
        : keys.assign(
            this.#groupBy.map((g) => g.evaluate(batch)),
            n,
          );
      const ngroups = global ? 1 : keys.size;
      for (let j = 0; j < accs.length; j++) {
        const { arg, extra = [], filter } = this.#aggregates[j]!;
        const values = arg ? arg.evaluate(batch) : null;
        const more = extra.map((e) => e.evaluate(batch));
        if (filter === null) {
          accs[j]!.update(groups, n, values, ngroups, more);
          continue;
        }
        // FILTER (WHERE …): feed the accumulator only the rows where the filter is true.
        const { indices, count } = selectTrue(filter.evaluate(batch));
        const keep = indices.subarray(0, count);
        const kept = more.map((c) => take(c, keep));
        accs[j]!.update(takeGroups(groups, keep), count, values ? take(values, keep) : null, ngroups, kept);
      }
    }
    const ngroups = global ? 1 : keys.size;
    const fields = this.schema.fields;
    const columns: Column[] = [
      ...this.#groupBy.map((_, c) => columnFromValues(fields[c]!.type, keys.values(c))),
      ...accs.map((a) => a.finish(ngroups)),
    ];
    const out = makeBatch(this.schema, columns, ngroups);
    for (let start = 0; start < ngroups; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(out, start, Math.min(ngroups, start + DEFAULT_BATCH_ROWS));
    }
  }
}

function takeGroups(groups: Int32Array, keep: Int32Array): Int32Array {
  const out = new Int32Array(keep.length);
  for (let i = 0; i < keep.length; i++) out[i] = groups[keep[i]!]!;
  return out;
}
