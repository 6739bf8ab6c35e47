// `ProjectExec` evaluates one expression per output column over each batch.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';

export class ProjectExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #exprs: readonly PhysicalExpr[];

  constructor(input: PhysicalOperator, exprs: readonly PhysicalExpr[], schema: Schema) {
    this.#input = input;
    this.#exprs = exprs;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      yield makeBatch(
        this.schema,
        this.#exprs.map((e) => e.evaluate(batch)),
        batch.length,
      );
    }
  }
}
