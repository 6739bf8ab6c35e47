// `CteScanExec` reads a common table expression that several parts of the query share: the first reader runs
// the CTE's plan once and keeps its batches; every reader (first included) replays them.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import { collectBatches, type PhysicalOperator } from '../operator.js';

/** One computation of a CTE, shared by its readers within one execution. */
export class SharedResult {
  readonly #input: PhysicalOperator;
  #batches: Promise<Batch[]> | null = null;

  constructor(input: PhysicalOperator) {
    this.#input = input;
  }

  batches(ctx: ExecContext): Promise<Batch[]> {
    this.#batches ??= collectBatches(this.#input, ctx);
    return this.#batches;
  }
}

export class CteScanExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #shared: SharedResult;

  constructor(shared: SharedResult, schema: Schema) {
    this.#shared = shared;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    yield* replayBatches(await this.#shared.batches(ctx), this.schema, ctx);
  }
}

/** Yields stored batches relabelled with a reader's schema (its alias and names); does not copy them. */
export function* replayBatches(batches: readonly Batch[], schema: Schema, ctx: ExecContext): Iterable<Batch> {
  for (const b of batches) {
    checkCancelled(ctx);
    yield makeBatch(schema, b.columns, b.length);
  }
}
