// `PhysicalOperator`: a pull-based operator yielding record batches of a fixed schema.
import type { Batch } from '../arrow/batch.js';
import { compactBatch } from '../arrow/gathered-column.js';
import type { Schema } from '../plan/types.js';
import { checkCancelled, type ExecContext } from './context.js';

export interface PhysicalOperator {
  readonly schema: Schema;
  /** Batches in order; checks `ctx.signal` between batches. Each call starts a fresh run. */
  execute(ctx: ExecContext): AsyncIterable<Batch>;
}

/** Every batch `op` yields (compacted: `compactBatch`), run to its end (a CTE's shared result, a partition's partial aggregate). */
export async function collectBatches(op: PhysicalOperator, ctx: ExecContext): Promise<Batch[]> {
  const out: Batch[] = [];
  for await (const b of op.execute(ctx)) {
    checkCancelled(ctx);
    out.push(compactBatch(b));
  }
  return out;
}
