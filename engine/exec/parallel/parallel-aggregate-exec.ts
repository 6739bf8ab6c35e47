// `ParallelAggregateExec`: an aggregate split by the rows of one large scan. Helper threads each aggregate a
// partition (`runFragment`), this thread aggregates the first, and the partial rows are folded with a final
// aggregate (SUM and COUNT add, MIN, MAX and ANY_VALUE take theirs again, AVG divides its merged sum by its merged
// count). With `takeBack` (the default), the partitions of a split in scan order are not fixed shares: every
// thread claims the scan's chunks one at a time from a counter in shared memory, so a helper that starts late or
// runs slower (its code is compiled apart from this thread's, and is cold the first times a query runs) reads fewer
// chunks, and one that never started is taken back having read none. A key split's partitions are fixed key
// ranges: one no helper started runs here.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import { collectBatches, type PhysicalOperator } from '../operator.js';
import type { ExecPool } from './exec-pool.js';
import type { FragmentTask } from './messages.js';

export interface ParallelAggregateSpec {
  /** The partial aggregate over partition `index` of `parts` (over the chunks it claims from `next`), here. */
  readonly local: (index: number, next?: Int32Array) => PhysicalOperator;
  /** The final aggregate over the partial rows. */
  readonly final: (partials: PhysicalOperator) => PhysicalOperator;
  /** What a helper needs for partition `part` (everything but `part`). */
  readonly task: Omit<FragmentTask, 'part'>;
  readonly pool: ExecPool;
  /** The partial aggregates' columns (AVG as a sum and a count: `partialAggregate`). */
  readonly partialSchema: Schema;
  /**
   * Partitions are fixed shares of the rows (a key split's ranges, or any split with `takeBack` off); otherwise
   * every thread claims chunks from a shared counter.
   */
  readonly fixedShares: boolean;
  /**
   * Take back the partitions no helper has started once this thread's is done: with claimed chunks they are
   * dropped (this thread read their chunks), fixed shares run here. When false, this thread waits for every helper
   * (tests: the helpers' path always runs).
   */
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
    const { local, final, task, pool, partialSchema, takeBack, fixedShares } = this.#spec;
    // Helpers stop when this query ends early (an error here, LIMIT above, or the client going away).
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const next = fixedShares ? undefined : new Int32Array(new SharedArrayBuffer(4));
      const handles = Array.from({ length: task.parts - 1 }, (_, i) =>
        pool.submit({ ...task, part: i + 1, next }, stop.signal),
      );
      const parts: Batch[] = await collectBatches(local(0, next), ctx);
      for (const [i, handle] of handles.entries()) {
        checkCancelled(ctx);
        if (takeBack && handle.takeBack()) {
          // Not started: its fixed share runs here; claimed chunks have all been read (by this thread or the
          // helpers that did start).
          if (fixedShares) parts.push(...(await collectBatches(local(i + 1), ctx)));
          continue;
        }
        for (const b of await handle.result) parts.push(makeBatch(partialSchema, b.columns, b.length));
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
