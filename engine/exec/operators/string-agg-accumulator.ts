// STRING_AGG(value, separator [ORDER BY …]) per group: collects the rows, sorts them at the end, joins them.
import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { chainComparators, rowComparator } from '../../arrow/kernels/compare-rows.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import { type Accumulator, columnFromValues, valueReader } from './accumulators.js';

type Key = ReturnType<ReturnType<typeof valueReader>>;

/**
 * PostgreSQL's rules: NULL values are skipped; each value after the first is preceded by its own row's
 * separator (a NULL separator adds nothing); a group without values is NULL. Without ORDER BY the order is
 * input order. DISTINCT keeps the first row of each value (the binder requires ORDER BY keys to be the value).
 */
export class StringAggAcc implements Accumulator {
  readonly #groups: number[] = [];
  readonly #values: string[] = [];
  readonly #seps: string[] = [];
  readonly #keys: Key[][];
  readonly #seen: Set<string>[] = [];
  constructor(readonly call: AggregateCall) {
    this.#keys = (call.orderBy ?? []).map(() => []);
  }
  update(groups: Int32Array, n: number, arg: Column | null, _ngroups: number, extra: readonly Column[] = []): void {
    const col = arg!;
    if (col.type.id === 'null') return;
    const values = strings(col);
    const sep = extra[0]!;
    const seps = sep.type.id === 'null' ? null : strings(sep);
    const keys = extra.slice(1).map(valueReader);
    for (let i = 0; i < n; i++) {
      if (col.valid !== null && col.valid[i] === 0) continue;
      const g = groups[i]!;
      if (this.call.distinct) {
        const seen = this.#seen[g] ?? new Set<string>();
        this.#seen[g] = seen;
        if (seen.has(values[i]!)) continue;
        seen.add(values[i]!);
      }
      this.#groups.push(g);
      this.#values.push(values[i]!);
      this.#seps.push(seps === null || (sep.valid !== null && sep.valid[i] === 0) ? '' : seps[i]!);
      for (let k = 0; k < keys.length; k++) this.#keys[k]!.push(keys[k]!(i));
    }
  }
  finish(ngroups: number): Column {
    const order = Array.from(this.#groups, (_, i) => i);
    const specs = this.call.orderBy ?? [];
    if (specs.length > 0) {
      const keyTypes = this.call.args.slice(2).map((a) => a.type);
      const cmp = chainComparators(
        specs.map((spec, k) => rowComparator(columnFromValues(keyTypes[k]!, this.#keys[k]!), spec)),
      );
      order.sort((i, j) => cmp(i, j) || i - j);
    }
    const out = new Array<string>(ngroups).fill('');
    const valid = new Uint8Array(ngroups);
    for (const i of order) {
      const g = this.#groups[i]!;
      out[g] = valid[g] ? out[g] + this.#seps[i]! + this.#values[i]! : this.#values[i]!;
      valid[g] = 1;
    }
    return makeColumn({ id: 'utf8' }, out, valid, ngroups);
  }
}
