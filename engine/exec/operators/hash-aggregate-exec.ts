// `HashAggregateExec` groups rows by key and folds each aggregate per group; output = groups in first-seen order.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import { type Column, constantColumn } from '../../arrow/column.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import { type AggregateCall, groupingValue } from '../../plan/logical/index.js';
import { INT32, type Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { FilterExec } from './filter-exec.js';
import { type AggregateInput, GroupTable, keptValues } from './group-table.js';

export interface PhysicalAggregate {
  readonly call: AggregateCall;
  readonly arg: PhysicalExpr | null;
  /** Further per-row inputs (string_agg's separator and ORDER BY keys). */
  readonly extra?: readonly PhysicalExpr[];
  readonly filter: PhysicalExpr | null;
}

/**
 * With grouping sets, one scan of the input feeds one group table per set; the output is each set's groups
 * in set order, the columns outside the set NULL, then a last column with the set's grouping id.
 */
export class HashAggregateExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #groupBy: readonly PhysicalExpr[];
  readonly #aggregates: readonly PhysicalAggregate[];
  readonly #groupingSets: readonly (readonly number[])[] | null;
  readonly #readsSelections: boolean;
  readonly #inputRows: number | null;

  constructor(
    input: PhysicalOperator,
    groupBy: readonly PhysicalExpr[],
    aggregates: readonly PhysicalAggregate[],
    schema: Schema,
    groupingSets: readonly (readonly number[])[] | null = null,
    /** May read a filter's selection (see `#aggregateSelections`); decided by the planner. */
    readsSelections = false,
    /** The input's row count when known (a table read whole): the group tables size themselves from it. */
    inputRows: number | null = null,
  ) {
    this.#readsSelections = readsSelections;
    this.#inputRows = inputRows;
    this.#input = input;
    this.#groupBy = groupBy;
    this.#aggregates = aggregates;
    this.schema = schema;
    this.#groupingSets = groupingSets;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const sets = this.#groupingSets ?? [this.#groupBy.map((_, i) => i)];
    const calls = this.#aggregates.map((a) => a.call);
    const fields = this.schema.fields;
    const tables = sets.map(
      (s) =>
        new GroupTable(
          s,
          s.map((c) => fields[c]!.type),
          calls,
        ),
    );
    if (this.#readsSelections && this.#input instanceof FilterExec && this.#input.selectable) {
      yield* this.#aggregateSelections(this.#input, tables, ctx);
      return;
    }
    let first = true;
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const keys = this.#groupBy.map((g) => g.evaluate(batch));
      const inputs = this.#aggregates.map((a): AggregateInput => {
        const values = a.arg ? a.arg.evaluate(batch) : null;
        const extra = (a.extra ?? []).map((e) => e.evaluate(batch));
        if (a.filter === null) return { values, extra, keep: null };
        // FILTER (WHERE …): feed the accumulator only the rows where the filter is true.
        const { indices, count } = selectTrue(a.filter.evaluate(batch));
        const keep = indices.subarray(0, count);
        return { values: keptValues(values, keep), extra: extra.map((c) => keptValues(c, keep)!), keep };
      });
      for (const t of tables) t.update(keys, batch.length, inputs);
      if (first && this.#inputRows !== null) for (const t of tables) t.expectFrom(keys, batch.length, this.#inputRows);
      first = false;
    }
    for (const t of tables) yield* this.#output(t);
  }

  /**
   * Under a filter whose predicate can run over every row, the aggregate reads the filter's selection instead of
   * columns copied down to the survivors: GROUP BY keys and arguments are evaluated over the whole batch and read
   * through it (groups come only from rows that pass). The planner allows it only
   * when no key or argument can raise an error on a row the filter drops, and no aggregate has FILTER, DISTINCT
   * or extra inputs.
   */
  async *#aggregateSelections(filter: FilterExec, tables: GroupTable[], ctx: ExecContext): AsyncIterable<Batch> {
    for await (const selected of filter.selections(ctx)) {
      let { batch, sel } = selected;
      const count = selected.count;
      if (sel !== null && count * 2 < batch.length) {
        // Few survivors: computing keys and arguments over every row would cost more than copying them. The rows
        // are copied out of the filter's buffer: gathered columns keep their indices until read.
        batch = makeBatch(batch.schema, gatherColumns(batch.columns, sel.slice(0, count), count, false), count);
        sel = null;
      }
      const keys = this.#groupBy.map((g) => g.evaluate(batch));
      const args = this.#aggregates.map((a) => (a.arg ? a.arg.evaluate(batch) : null));
      if (sel === null) {
        const inputs = args.map((values): AggregateInput => ({ values, extra: [], keep: null }));
        for (const t of tables) t.update(keys, count, inputs);
      } else {
        for (const t of tables) t.updateSelected(keys, count, sel, args);
      }
    }
    for (const t of tables) yield* this.#output(t);
  }

  *#output(t: GroupTable): Iterable<Batch> {
    const n = t.size;
    const fields = this.schema.fields;
    const groupColumns = this.#groupBy.map((_, c): Column => {
      const at = t.columns.indexOf(c);
      return at < 0 ? constantColumn(fields[c]!.type, null, n) : t.keys.column(at, fields[c]!.type);
    });
    const columns = [...groupColumns, ...t.finish()];
    if (this.#groupingSets) {
      const id = groupingValue(
        t.columns,
        this.#groupBy.map((_, i) => i),
      );
      columns.push(constantColumn(INT32, id, n));
    }
    const out = makeBatch(this.schema, columns, n);
    for (let start = 0; start < n; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(out, start, Math.min(n, start + DEFAULT_BATCH_ROWS));
    }
  }
}
