// `FilterExec` keeps rows where the predicate is true (not NULL); output order = input order.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { selectTrue, take } from '../../arrow/kernels/take.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';

export class FilterExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #predicate: PhysicalExpr;

  constructor(input: PhysicalOperator, predicate: PhysicalExpr) {
    this.#input = input;
    this.#predicate = predicate;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const { indices, count } = selectTrue(this.#predicate.evaluate(batch));
      if (count === 0) continue;
      if (count === batch.length) {
        yield batch;
        continue;
      }
      const keep = indices.subarray(0, count);
      yield makeBatch(
        batch.schema,
        batch.columns.map((c) => take(c, keep, count)),
        count,
      );
    }
  }
}
