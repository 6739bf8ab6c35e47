// `HashAggregateExec` groups rows by key and folds each aggregate per group; output = groups in first-seen order.
import { type Batch, DEFAULT_BATCH_ROWS, makeBatch, sliceBatch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import type { Schema } from '../../plan/types.js';
import { checkCancelled, type ExecContext } from '../context.js';
import type { PhysicalExpr } from '../expr/physical-expr.js';
import type { PhysicalOperator } from '../operator.js';
import { type Accumulator, columnFromValues, makeAccumulator, valueReader } from './accumulators.js';

type Key = number | bigint | string | boolean;
const NULL_KEY = '\u0000null';

export interface PhysicalAggregate {
  readonly call: AggregateCall;
  readonly arg: PhysicalExpr | null;
}

export class HashAggregateExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #groupBy: readonly PhysicalExpr[];
  readonly #aggregates: readonly PhysicalAggregate[];

  constructor(
    input: PhysicalOperator,
    groupBy: readonly PhysicalExpr[],
    aggregates: readonly PhysicalAggregate[],
    schema: Schema,
  ) {
    this.#input = input;
    this.#groupBy = groupBy;
    this.#aggregates = aggregates;
    this.schema = schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const ids = new Map<Key, number>();
    const keyValues: (Key | null)[][] = this.#groupBy.map(() => []);
    const accs: Accumulator[] = this.#aggregates.map((a) => makeAccumulator(a.call));
    const global = this.#groupBy.length === 0;
    let ngroups = global ? 1 : 0;
    for await (const batch of this.#input.execute(ctx)) {
      checkCancelled(ctx);
      const n = batch.length;
      const groups = new Int32Array(n);
      if (!global) {
        const keys = this.#groupBy.map((g) => g.evaluate(batch));
        const readers = keys.map(valueReader);
        const keyOf = readers.length === 1 ? singleKey(readers[0]!) : compositeKey(readers);
        for (let i = 0; i < n; i++) {
          const k = keyOf(i);
          let id = ids.get(k);
          if (id === undefined) {
            id = ngroups++;
            ids.set(k, id);
            for (let c = 0; c < readers.length; c++) keyValues[c]!.push(readers[c]!(i));
          }
          groups[i] = id;
        }
      }
      for (let j = 0; j < accs.length; j++) {
        const arg = this.#aggregates[j]!.arg;
        accs[j]!.update(groups, n, arg ? arg.evaluate(batch) : null, ngroups);
      }
    }
    const fields = this.schema.fields;
    const columns: Column[] = [
      ...keyValues.map((vals, c) => columnFromValues(fields[c]!.type, vals)),
      ...accs.map((a) => a.finish(ngroups)),
    ];
    const out = makeBatch(this.schema, columns, ngroups);
    for (let start = 0; start < ngroups; start += DEFAULT_BATCH_ROWS) {
      yield sliceBatch(out, start, Math.min(ngroups, start + DEFAULT_BATCH_ROWS));
    }
  }
}

function singleKey(read: (i: number) => Key | null): (i: number) => Key {
  return (i) => {
    const k = read(i);
    return k === null
      ? NULL_KEY
      : typeof k === 'bigint' && k <= 9007199254740991n && k >= -9007199254740991n
        ? Number(k)
        : k;
  };
}

// Composite keys as one string of type-tagged, length-prefixed parts: no two distinct key tuples collide.
function compositeKey(readers: ((i: number) => Key | null)[]): (i: number) => Key {
  return (i) => {
    let s = '';
    for (const r of readers) {
      const k = r(i);
      s += k === null ? '\u0000;' : typeof k === 'string' ? `s${k.length}:${k}` : `n${String(k)};`;
    }
    return s;
  };
}
