// `JoinExec` joins a streamed left input with a materialised right input: a hash join on the equality keys, or a
// nested loop over every pair when the condition has no equality. All join types share the pair bookkeeping.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { type Column, constantColumn, makeColumn } from '../../arrow/column.js';
import { compactBatch, concatLazily, gatherColumns } from '../../arrow/gathered-column.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import { ExecError } from '../../errors.js';
import type { JoinType } from '../../plan/logical/index.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { JoinHashTable, type Pairs } from './join-keys.js';

export interface JoinSpec {
  readonly joinType: JoinType;
  /** Equality keys, evaluated over each side's batches; empty = nested loop. */
  readonly leftKeys: readonly PhysicalExpr[];
  readonly rightKeys: readonly PhysicalExpr[];
  /** The rest of the condition, over a batch of left columns followed by right columns. */
  readonly residual: PhysicalExpr | null;
  /** NOT IN semantics on the first key (see the logical Join). */
  readonly nullAware: boolean;
  readonly singleMatch: boolean;
}

/** Pairs the nested loop considers at once (left rows × all right rows). */
const NESTED_LOOP_PAIRS = 1 << 16;

export class JoinExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #left: PhysicalOperator;
  readonly #right: PhysicalOperator;
  readonly #spec: JoinSpec;
  readonly #pairSchema: Schema;
  /** Semi/anti/mark without any condition: a left row matches iff the right side has a row. */
  readonly #existsOnly: boolean;
  /** Semi/anti/mark without a residual: one matching right row per left row decides. */
  readonly #firstMatchOnly: boolean;

  constructor(left: PhysicalOperator, right: PhysicalOperator, spec: JoinSpec, schema: Schema) {
    this.#left = left;
    this.#right = right;
    this.#spec = spec;
    this.schema = schema;
    this.#pairSchema = { fields: [...left.schema.fields, ...right.schema.fields] };
    const t = spec.joinType;
    this.#existsOnly =
      spec.leftKeys.length === 0 && spec.residual === null && (t === 'semi' || t === 'anti' || t === 'mark');
    this.#firstMatchOnly =
      spec.residual === null && !spec.singleMatch && (t === 'semi' || t === 'anti' || t === 'mark');
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const spec = this.#spec;
    const table = spec.leftKeys.length > 0 ? new JoinHashTable() : null;
    const build = await materializeBuild(this.#right, ctx, table, spec.rightKeys);
    const rightRows = build.length;
    const rightMatched = spec.joinType === 'right' || spec.joinType === 'full' ? new Uint8Array(rightRows) : null;
    const nullOnRight = spec.nullAware && (table?.hasNullKey ?? false);
    for await (const batch of this.#left.execute(ctx)) {
      checkCancelled(ctx);
      if (batch.length === 0) continue;
      const keys = table ? spec.leftKeys.map((k) => k.evaluate(batch)) : null;
      const chunk =
        table || this.#existsOnly ? batch.length : Math.max(1, Math.floor(NESTED_LOOP_PAIRS / Math.max(1, rightRows)));
      for (let start = 0; start < batch.length; start += chunk) {
        const end = Math.min(batch.length, start + chunk);
        const pairs =
          table && keys
            ? table.probe(keys, batch.length, this.#firstMatchOnly)
            : this.#existsOnly
              ? everyRowOnce(start, end, rightRows)
              : nestedPairs(start, end, rightRows);
        const kept =
          spec.residual === null
            ? pairs
            : filterPairs(spec.residual, this.#pairSchema, batch, pairs.left, build, pairs.right, pairs);
        if (rightMatched) for (let i = 0; i < kept.count; i++) rightMatched[kept.right[i]!] = 1;
        const out = this.#emit(batch, build, kept, start, end, rightRows, nullOnRight, keys);
        if (out && out.length > 0) yield out;
      }
    }
    if (rightMatched) {
      const missing: number[] = [];
      for (let r = 0; r < rightRows; r++) if (rightMatched[r] === 0) missing.push(r);
      if (missing.length > 0) {
        const right = Int32Array.from(missing);
        const left = new Int32Array(missing.length).fill(-1);
        yield this.#gather(null, build, { left, right, count: missing.length }, true);
      }
    }
  }

  /** Output rows for left rows [from, to) of `batch`, given their matching pairs. */
  #emit(
    batch: Batch,
    build: Batch,
    pairs: Pairs,
    from: number,
    to: number,
    rightRows: number,
    nullOnRight: boolean,
    keys: readonly Column[] | null,
  ): Batch | null {
    const spec = this.#spec;
    const type = spec.joinType;
    if (type === 'inner' || type === 'right') return this.#gather(batch, build, pairs, false);
    const matches = new Uint8Array(to - from);
    for (let i = 0; i < pairs.count; i++) {
      const at = pairs.left[i]! - from;
      if (spec.singleMatch && matches[at] === 1)
        throw new ExecError('more than one row returned by a subquery used as an expression');
      matches[at] = 1;
    }
    if (type === 'left' || type === 'full') {
      let unmatched = 0;
      for (let i = 0; i < matches.length; i++) unmatched += 1 - matches[i]!;
      if (unmatched === 0) return this.#gather(batch, build, pairs, false);
      const n = pairs.count + unmatched;
      const left = new Int32Array(n);
      const right = new Int32Array(n);
      left.set(pairs.left.subarray(0, pairs.count));
      right.set(pairs.right.subarray(0, pairs.count));
      let at = pairs.count;
      for (let i = 0; i < matches.length; i++) {
        if (matches[i] === 0) {
          left[at] = from + i;
          right[at++] = -1;
        }
      }
      return this.#gather(batch, build, { left, right, count: n }, true);
    }
    const keyNull = spec.nullAware ? nullRows(keys?.[0] ?? spec.leftKeys[0]!.evaluate(batch)) : null;
    if (type === 'mark') {
      const values = new Uint8Array(matches.length);
      const valid = new Uint8Array(matches.length).fill(1);
      for (let i = 0; i < matches.length; i++) {
        values[i] = matches[i]!;
        // x IN (…) with no match is NULL when x is NULL or the subquery produced a NULL (and any row at all).
        if (matches[i] === 0 && rightRows > 0 && (nullOnRight || keyNull?.[from + i] === 1)) valid[i] = 0;
      }
      const rows = from === 0 && to === batch.length ? batch.columns : sliceRows(batch, from, to);
      return makeBatch(this.schema, [...rows, makeColumn({ id: 'bool' }, values, valid, values.length)], values.length);
    }
    const keep = new Int32Array(matches.length);
    let kept = 0;
    for (let i = 0; i < matches.length; i++) {
      let pass = type === 'semi' ? matches[i] === 1 : matches[i] === 0;
      if (pass && type === 'anti' && spec.nullAware && rightRows > 0 && (nullOnRight || keyNull?.[from + i] === 1))
        pass = false;
      if (pass) keep[kept++] = from + i;
    }
    if (kept === batch.length) return makeBatch(this.schema, batch.columns, batch.length);
    return makeBatch(this.schema, gatherColumns(batch.columns, keep, kept, false), kept);
  }

  /**
   * Left columns then right columns of the pairs (`padded`: index -1 on either side is a NULL row), each copied
   * only if some operator above reads it; left columns pass as they are when every left row pairs once, in order.
   */
  #gather(batch: Batch | null, build: Batch, pairs: Pairs, padded: boolean): Batch {
    const n = pairs.count;
    const left =
      batch === null
        ? this.#left.schema.fields.map((f) => constantColumn(f.type, null, n))
        : n === batch.length && isIdentity(pairs.left, n)
          ? batch.columns
          : gatherColumns(batch.columns, pairs.left, n, padded);
    return makeBatch(this.schema, [...left, ...gatherColumns(build.columns, pairs.right, n, padded)], n);
  }
}

function everyRowOnce(from: number, to: number, rightRows: number): Pairs {
  const n = rightRows > 0 ? to - from : 0;
  const left = new Int32Array(n);
  for (let i = 0; i < n; i++) left[i] = from + i;
  return { left, right: new Int32Array(n), count: n };
}

function nestedPairs(from: number, to: number, rightRows: number): Pairs {
  const n = (to - from) * rightRows;
  const left = new Int32Array(n);
  const right = new Int32Array(n);
  let at = 0;
  for (let i = from; i < to; i++) {
    for (let r = 0; r < rightRows; r++) {
      left[at] = i;
      right[at++] = r;
    }
  }
  return { left, right, count: n };
}

function isIdentity(rows: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (rows[i] !== i) return false;
  return true;
}

function nullRows(c: Column): Uint8Array {
  const out = new Uint8Array(c.length);
  if (c.type.id === 'null') return out.fill(1);
  if (c.valid === null) return out;
  for (let i = 0; i < c.length; i++) out[i] = 1 - c.valid[i]!;
  return out;
}

function sliceRows(batch: Batch, from: number, to: number): Column[] {
  const idx = new Int32Array(to - from);
  for (let i = 0; i < idx.length; i++) idx[i] = from + i;
  return gatherColumns(batch.columns, idx, idx.length, false);
}

/** An input as one batch; with a hash join, its `keys` go into `table` batch by batch (never concatenated), once the input's size is known. */
export async function materializeBuild(
  op: PhysicalOperator,
  ctx: ExecContext,
  table: JoinHashTable | null,
  keys: readonly PhysicalExpr[],
): Promise<Batch> {
  const batches: Batch[] = [];
  for await (const b of op.execute(ctx)) {
    checkCancelled(ctx);
    if (b.length === 0) continue;
    batches.push(compactBatch(b));
  }
  const length = batches.reduce((n, b) => n + b.length, 0);
  // Keys go in once every batch is here, so the table knows the build's size and is sized once.
  for (const b of batches) {
    if (table === null) break;
    checkCancelled(ctx);
    table.add(
      keys.map((k) => k.evaluate(b)),
      b.length,
      length,
    );
  }
  const columns = op.schema.fields.map((f, c) =>
    batches.length === 0
      ? makeColumn(f.type, null, new Uint8Array(0), 0)
      : concatLazily(batches.map((b) => b.columns[c]!)),
  );
  return makeBatch(op.schema, columns, length);
}

/**
 * The pairs that also satisfy `residual`, evaluated over `first`'s columns at `firstRows` followed by `second`'s
 * at `secondRows` (one entry per pair). Only the columns the condition reads are gathered.
 */
export function filterPairs(
  residual: PhysicalExpr,
  schema: Schema,
  first: Batch,
  firstRows: Int32Array,
  second: Batch,
  secondRows: Int32Array,
  pairs: Pairs,
): Pairs {
  const n = pairs.count;
  if (n === 0) return pairs;
  const columns = [
    ...gatherColumns(first.columns, firstRows, n, false),
    ...gatherColumns(second.columns, secondRows, n, false),
  ];
  const { indices, count } = selectTrue(residual.evaluate(makeBatch(schema, columns, n)));
  const left = new Int32Array(count);
  const right = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    left[i] = pairs.left[indices[i]!]!;
    right[i] = pairs.right[indices[i]!]!;
  }
  return { left, right, count };
}
