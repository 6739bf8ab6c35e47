// `PhysicalOperator`: a pull-based operator yielding record batches of a fixed schema.
import type { Batch } from '../arrow/batch.js';
import type { Schema } from '../plan/types.js';
import type { ExecContext } from './context.js';

export interface PhysicalOperator {
  readonly schema: Schema;
  /** Batches in order; checks `ctx.signal` between batches. Each call starts a fresh run. */
  execute(ctx: ExecContext): AsyncIterable<Batch>;
}
