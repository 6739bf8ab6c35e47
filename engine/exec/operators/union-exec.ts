// `UnionExec` (UNION ALL) yields every batch of each input in turn, relabelled with the union's schema.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';

/** Inputs must already have the union's column types (the binder casts each arm); names may differ. */
export class UnionExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #inputs: readonly PhysicalOperator[];

  constructor(inputs: readonly PhysicalOperator[], schema: Schema) {
    this.#inputs = inputs;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    for (const input of this.#inputs) {
      for await (const batch of input.execute(ctx)) {
        checkCancelled(ctx);
        yield makeBatch(this.schema, batch.columns, batch.length);
      }
    }
  }
}
