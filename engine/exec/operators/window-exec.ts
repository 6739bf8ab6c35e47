// `WindowExec` materialises its input, evaluates window calls per partition and appends one column per call.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { compactBatch } from '../../arrow/gathered-column.js';
import { concatColumns } from '../../arrow/kernels/take.js';
import { exprText } from '../../plan/expr/display.js';
import type { Window, WindowCall } from '../../plan/logical/window.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import { compileExpr, type PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import type { PhysicalSortKey } from './sort-exec.js';
import { windowAggregate } from './window-aggregates.js';
import { frameBounds } from './window-frames.js';
import { windowFunction } from './window-functions.js';
import { type SortedPartitions, sortPartitions } from './window-partitions.js';

export interface PhysicalWindowCall {
  readonly call: WindowCall;
  readonly args: readonly PhysicalExpr[];
  readonly partitionBy: readonly PhysicalExpr[];
  readonly orderBy: readonly PhysicalSortKey[];
  /** Calls with equal keys share one sort (the text of their PARTITION BY and ORDER BY). */
  readonly sortKey: string;
}

const AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max']);

/**
 * Output = the input rows in input order, each followed by its value of every call. Holds the whole
 * input in memory; each distinct PARTITION BY + ORDER BY is sorted once.
 */
export class WindowExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #calls: readonly PhysicalWindowCall[];

  constructor(input: PhysicalOperator, calls: readonly PhysicalWindowCall[], schema: Schema) {
    this.#input = input;
    this.#calls = calls;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const batches: Batch[] = [];
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      if (batch.length > 0) batches.push(compactBatch(batch));
    }
    const n = batches.reduce((k, b) => k + b.length, 0);
    if (n === 0) return;
    const inputFields = this.#input.schema.fields;
    const all = makeBatch(
      this.#input.schema,
      inputFields.map((_, c) => concatColumns(batches.map((b) => b.columns[c]!))),
      n,
    );
    const sorted = new Map<string, SortedPartitions>();
    const results: Column[] = [];
    for (const w of this.#calls) {
      checkCancelled(ctx);
      let parts = sorted.get(w.sortKey);
      if (parts === undefined) {
        parts = sortPartitions(
          n,
          w.partitionBy.map((e) => e.evaluate(all)),
          w.orderBy.map((k) => ({ column: k.expr.evaluate(all), spec: k })),
        );
        sorted.set(w.sortKey, parts);
      }
      results.push(evaluateCall(w, all, parts));
    }
    const out = makeBatch(this.schema, [...all.columns, ...results], n);
    for (let start = 0; start < n; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(out, start, Math.min(n, start + DEFAULT_BATCH_ROWS));
    }
  }
}

function evaluateCall(w: PhysicalWindowCall, all: Batch, parts: SortedPartitions): Column {
  const { call } = w;
  const first = w.orderBy[0];
  const key = first ? { column: first.expr.evaluate(all), spec: first } : null;
  const bounds = frameBounds(call.frame, parts, key);
  const args = w.args.map((a) => a.evaluate(all));
  if (AGGREGATES.has(call.fn)) return windowAggregate(call, args[0] ?? null, parts, bounds);
  return windowFunction(call, args, parts, bounds);
}

/** The operator for a logical Window over the already planned `input`. */
export function planWindow(p: Window, input: PhysicalOperator): WindowExec {
  const compile = (e: Parameters<typeof compileExpr>[0]) => compileExpr(e, input.schema);
  const calls = p.calls.map(
    (call): PhysicalWindowCall => ({
      call,
      args: call.args.map(compile),
      partitionBy: call.partitionBy.map(compile),
      orderBy: call.orderBy.map((k) => ({ expr: compile(k.expr), ascending: k.ascending, nullsFirst: k.nullsFirst })),
      sortKey: JSON.stringify([
        call.partitionBy.map(exprText),
        call.orderBy.map((k) => [exprText(k.expr), k.ascending, k.nullsFirst]),
      ]),
    }),
  );
  return new WindowExec(input, calls, p.schema);
}
