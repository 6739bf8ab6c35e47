// `RecursiveCteExec` runs WITH RECURSIVE: the first term once, then the recursive term over its working table
// until an iteration adds no row; output order = the order rows were produced.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { take } from '../../arrow/kernels/take.js';
import { ExecError } from '../../errors.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalOperator } from '../operator.js';
import { GroupKeys } from './group-keys.js';
import type { WorkTable } from './work-table-scan-exec.js';

/** Runs of the recursive term past which a query fails (an unbounded recursion must not hang a worker). */
export const MAX_RECURSIVE_ITERATIONS = 100_000;
/** Rows a recursive query may produce in all (first term included) before it fails. */
export const MAX_RECURSIVE_ROWS = 1_000_000;
/**
 * Iterations run on microtasks alone, so an abort (a timer, a message from the server) could not arrive: the
 * loop gives the event loop a turn when this long has passed since the last.
 */
const YIELD_INTERVAL_MS = 10;

export interface RecursiveCteSpec {
  readonly name: string;
  /** UNION ALL: keep every row; UNION: drop rows equal (NULLs equal) to one produced before. */
  readonly all: boolean;
}

/**
 * Streams as it goes: a consumer that stops early (a LIMIT) stops the iteration. `recursive` reads `workTable`
 * (its `WorkTableScanExec`), which this operator sets to the previous iteration's rows before each run.
 * Memory: one iteration's rows, plus one entry per distinct row produced for UNION.
 */
export class RecursiveCteExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #anchor: PhysicalOperator;
  readonly #recursive: PhysicalOperator;
  readonly #workTable: WorkTable;
  readonly #spec: RecursiveCteSpec;

  constructor(
    anchor: PhysicalOperator,
    recursive: PhysicalOperator,
    workTable: WorkTable,
    spec: RecursiveCteSpec,
    schema: Schema,
  ) {
    this.#anchor = anchor;
    this.#recursive = recursive;
    this.#workTable = workTable;
    this.#spec = spec;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const seen = this.#spec.all ? null : new GroupKeys(this.schema.fields.map((f) => f.type));
    let rows = 0;
    let working: Batch[] = [];
    let term = this.#anchor;
    let turn = performance.now();
    try {
      for (let iteration = 0; iteration === 0 || working.length > 0; iteration++) {
        if (performance.now() - turn > YIELD_INTERVAL_MS) {
          await nextTurn();
          turn = performance.now();
        }
        checkCancelled(ctx);
        if (iteration > MAX_RECURSIVE_ITERATIONS)
          throw this.#limitError('MAX_RECURSIVE_ITERATIONS', `${MAX_RECURSIVE_ITERATIONS} iterations`);
        this.#workTable.batches = working;
        const produced: Batch[] = [];
        for await (const b of term.execute(ctx)) {
          checkCancelled(ctx);
          const batch = seen === null ? makeBatch(this.schema, b.columns, b.length) : this.#newRows(b, seen);
          if (batch.length === 0) continue;
          rows += batch.length;
          if (rows > MAX_RECURSIVE_ROWS) throw this.#limitError('MAX_RECURSIVE_ROWS', `${MAX_RECURSIVE_ROWS} rows`);
          produced.push(batch);
          yield batch;
        }
        working = produced;
        term = this.#recursive;
      }
    } finally {
      this.#workTable.batches = [];
    }
  }

  /** The rows of `b` not produced before (nor earlier in `b`), as a batch of this schema. */
  #newRows(b: Batch, seen: GroupKeys): Batch {
    const before = seen.size;
    const ids = seen.assign(b.columns, b.length);
    const firsts = new Uint8Array(seen.size - before);
    const keep: number[] = [];
    for (let i = 0; i < b.length; i++) {
      const fresh = ids[i]! - before;
      if (fresh >= 0 && firsts[fresh] === 0) {
        firsts[fresh] = 1;
        keep.push(i);
      }
    }
    if (keep.length === b.length) return makeBatch(this.schema, b.columns, b.length);
    const indices = Int32Array.from(keep);
    return makeBatch(
      this.schema,
      b.columns.map((c) => take(c, indices)),
      indices.length,
    );
  }

  #limitError(limit: string, what: string): ExecError {
    return new ExecError(
      `recursive query "${this.#spec.name}" exceeded ${limit} (${what}); add a condition that ends the recursion`,
    );
  }
}
