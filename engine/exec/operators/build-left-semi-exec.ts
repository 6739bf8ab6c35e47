// `BuildLeftSemiExec`: a semi or anti join that builds its hash table on the LEFT input and streams the right one,
// for a small left side against a large right side (TPC-H Q4, Q21, Q22: few orders or customers, many lineitem
// or order rows). Left rows come out in their input order once the right side has been read: matched ones for
// semi, unmatched ones for anti (a NULL key never matches). Not for NOT IN's null-aware anti join.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { filterPairs, materializeBuild } from './join-exec.js';
import { JoinHashTable } from './join-keys.js';

export interface BuildLeftSemiSpec {
  readonly anti: boolean;
  readonly leftKeys: readonly PhysicalExpr[];
  readonly rightKeys: readonly PhysicalExpr[];
  /** The rest of the condition, over left columns followed by right columns. */
  readonly residual: PhysicalExpr | null;
}

export class BuildLeftSemiExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #left: PhysicalOperator;
  readonly #right: PhysicalOperator;
  readonly #spec: BuildLeftSemiSpec;
  readonly #pairSchema: Schema;

  constructor(left: PhysicalOperator, right: PhysicalOperator, spec: BuildLeftSemiSpec, schema: Schema) {
    this.#left = left;
    this.#right = right;
    this.#spec = spec;
    this.schema = schema;
    this.#pairSchema = { fields: [...left.schema.fields, ...right.schema.fields] };
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const spec = this.#spec;
    const table = new JoinHashTable();
    const build = await materializeBuild(this.#left, ctx, table, spec.leftKeys);
    const matched = new Uint8Array(build.length);
    let open = build.length;
    for await (const batch of this.#right.execute(ctx)) {
      checkCancelled(ctx);
      if (batch.length === 0 || open === 0) continue;
      const keys = spec.rightKeys.map((k) => k.evaluate(batch));
      // Pairs come as (probe row = right row, build row = left row).
      const probed = table.probe(keys, batch.length);
      const pairs =
        spec.residual === null
          ? probed
          : filterPairs(spec.residual, this.#pairSchema, build, probed.right, batch, probed.left, probed);
      for (let i = 0; i < pairs.count; i++) {
        const r = pairs.right[i]!;
        open -= 1 - matched[r]!;
        matched[r] = 1;
      }
    }
    const keep = new Int32Array(build.length);
    let kept = 0;
    const want = spec.anti ? 0 : 1;
    for (let i = 0; i < build.length; i++) if (matched[i] === want) keep[kept++] = i;
    if (kept === 0) return;
    const columns = kept === build.length ? build.columns : gatherColumns(build.columns, keep, kept, false);
    yield makeBatch(this.schema, columns, kept);
  }
}
