// `LimitExec` skips `skip` rows then passes at most `fetch`, and stops pulling its input once done.
import { type Batch, sliceBatch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import type { ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';

export class LimitExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #skip: number;
  readonly #fetch: number | null;

  constructor(input: PhysicalOperator, skip: number, fetch: number | null) {
    this.#input = input;
    this.#skip = skip;
    this.#fetch = fetch;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    let skip = this.#skip;
    let left = this.#fetch ?? Number.POSITIVE_INFINITY;
    if (left === 0) return;
    for await (const batch of this.#input.execute(ctx)) {
      const start = Math.min(skip, batch.length);
      skip -= start;
      const end = Math.min(batch.length, start + left);
      if (end > start) {
        yield sliceBatch(batch, start, end);
        left -= end - start;
      }
      if (left <= 0) return;
    }
  }
}
