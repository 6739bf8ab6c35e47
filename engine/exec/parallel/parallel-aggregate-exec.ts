// `ParallelAggregateExec`: an aggregate split by the rows of one large scan. Helper threads each aggregate a
// partition (`runFragment`), this thread aggregates the first, takes back the partitions no helper started, and
// folds the partial rows with a final aggregate (SUM and COUNT add, MIN, MAX and ANY_VALUE take theirs again, AVG
// divides its merged sum by its merged count).
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import { collectBatches, type PhysicalOperator } from '../operator.js';
import type { ExecPool } from './exec-pool.js';
import type { FragmentTask } from './messages.js';

export interface ParallelAggregateSpec {
  /** The partial aggregate over partition `index` of `parts`, run on this thread. */
  readonly local: (index: number) => PhysicalOperator;
  /** The final aggregate over the partial rows. */
  readonly final: (partials: PhysicalOperator) => PhysicalOperator;
  /** What a helper needs for partition `part` (everything but `part`). */
  readonly task: Omit<FragmentTask, 'part'>;
  readonly pool: ExecPool;
  /** The partial aggregates' columns (AVG as a sum and a count: `partialAggregate`). */
  readonly partialSchema: Schema;
  /** Run the partitions no helper has started here, once this thread's own is done (else wait for them). */
  readonly takeBack: boolean;
}

export class ParallelAggregateExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #spec: ParallelAggregateSpec;

  constructor(spec: ParallelAggregateSpec, schema: Schema) {
    this.#spec = spec;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const { local, final, task, pool, partialSchema, takeBack } = this.#spec;
    // Helpers stop when this query ends early (an error here, LIMIT above, or the client going away).
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const handles = Array.from({ length: task.parts - 1 }, (_, i) =>
        pool.submit({ ...task, part: i + 1 }, stop.signal),
      );
      const parts: Batch[] = await collectBatches(local(0), ctx);
      for (const [i, handle] of handles.entries()) {
        checkCancelled(ctx);
        if (takeBack && handle.takeBack()) parts.push(...(await collectBatches(local(i + 1), ctx)));
        else for (const b of await handle.result) parts.push(makeBatch(partialSchema, b.columns, b.length));
      }
      yield* final(new PartialsExec(partialSchema, parts)).execute(ctx);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      stop.abort();
    }
  }
}

/** The partial aggregates' rows, as the final aggregate's input. */
class PartialsExec implements PhysicalOperator {
  constructor(
    readonly schema: Schema,
    readonly batches: readonly Batch[],
  ) {}

  async *execute(): AsyncIterable<Batch> {
    yield* this.batches;
  }
}
