// `SetOpExec`: INTERSECT / EXCEPT [ALL] by counting each distinct row on both sides in one hash table.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import { take } from '../../arrow/kernels/take.js';
import type { SetOpKind } from '../../plan/logical/index.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';
import { GroupKeys } from './group-keys.js';

/**
 * Reads the left input whole, then the right; rows compare as group keys do (NULL equals NULL). Output
 * order = first occurrence on the left; with ALL a row's copies are adjacent. Memory: one entry per
 * distinct row of either side.
 */
export class SetOpExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #left: PhysicalOperator;
  readonly #right: PhysicalOperator;
  readonly #op: SetOpKind;
  readonly #all: boolean;

  constructor(left: PhysicalOperator, right: PhysicalOperator, op: SetOpKind, all: boolean, schema: Schema) {
    this.#left = left;
    this.#right = right;
    this.#op = op;
    this.#all = all;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const keys = new GroupKeys(this.schema.fields.map((f) => f.type));
    const leftCounts = await count(this.#left, keys, ctx, null);
    const rightCounts = await count(this.#right, keys, ctx, leftCounts.length);
    const rows: number[] = [];
    for (let g = 0; g < leftCounts.length; g++) {
      const times = this.#copies(leftCounts[g]!, rightCounts[g] ?? 0);
      for (let k = 0; k < times; k++) rows.push(g);
    }
    const indices = Int32Array.from(rows);
    const columns = this.schema.fields.map((f, c) => take(keys.column(c, f.type), indices));
    const out = makeBatch(this.schema, columns, indices.length);
    for (let start = 0; start < out.length; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(out, start, Math.min(out.length, start + DEFAULT_BATCH_ROWS));
    }
  }

  /** How many times a row seen l times on the left and r times on the right is output. */
  #copies(l: number, r: number): number {
    if (this.#op === 'intersect') return this.#all ? Math.min(l, r) : r > 0 ? 1 : 0;
    return this.#all ? Math.max(l - r, 0) : r === 0 ? 1 : 0;
  }
}

/** Occurrences per group id of the rows of `input`; `limit` = count only ids below it (the left's groups). */
async function count(
  input: PhysicalOperator,
  keys: GroupKeys,
  ctx: ExecContext,
  limit: number | null,
): Promise<number[]> {
  const counts: number[] = [];
  for await (const batch of input.execute(ctx)) {
    checkCancelled(ctx);
    const ids = keys.assign(batch.columns, batch.length);
    for (const g of ids) {
      if (limit !== null && g >= limit) continue;
      counts[g] = (counts[g] ?? 0) + 1;
    }
  }
  if (limit === null) counts.length = keys.size;
  return counts;
}
