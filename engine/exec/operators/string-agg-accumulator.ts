// STRING_AGG(value, separator [ORDER BY …]) per group: collects the rows, sorts them at the end, joins them.

import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { chainComparators, rowComparator } from '../../arrow/kernels/compare-rows.js';
import { compareText } from '../../arrow/kernels/text-order.js';
import { checkTextLength } from '../../errors.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import { type Accumulator, columnFromValues, valueReader } from './accumulators.js';

type Key = ReturnType<ReturnType<typeof valueReader>>;

/**
 * PostgreSQL's rules: NULL values are skipped; each value after the first is preceded by its own row's
 * separator (a NULL separator adds nothing); a group without values is NULL. Without ORDER BY the order is
 * input order. DISTINCT keeps the first row of each (value, separator) pair, as PostgreSQL's DISTINCT covers
 * every argument, and sorts pairs of one value by separator (the binder requires ORDER BY keys to be the value).
 */
export class StringAggAcc implements Accumulator {
  readonly #groups: number[] = [];
  readonly #values: string[] = [];
  /** null for a NULL separator (it adds nothing, but is its own DISTINCT pair). */
  readonly #seps: (string | null)[] = [];
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
      const separator = seps === null || (sep.valid !== null && sep.valid[i] === 0) ? null : seps[i]!;
      if (this.call.distinct) {
        const seen = this.#seen[g] ?? new Set<string>();
        this.#seen[g] = seen;
        // Text holds no NUL character, so NUL joins the pair unambiguously.
        const pair = separator === null ? `${values[i]}\0` : `${values[i]}\0\x01${separator}`;
        if (seen.has(pair)) continue;
        seen.add(pair);
      }
      this.#groups.push(g);
      this.#values.push(values[i]!);
      this.#seps.push(separator);
      for (let k = 0; k < keys.length; k++) this.#keys[k]!.push(keys[k]!(i));
    }
  }
  finish(ngroups: number): Column {
    const order = Array.from(this.#groups, (_, i) => i);
    const cmp = this.#comparator();
    if (cmp !== null) order.sort((i, j) => cmp(i, j) || i - j);
    const out = new Array<string>(ngroups).fill('');
    const valid = new Uint8Array(ngroups);
    for (const i of order) {
      const g = this.#groups[i]!;
      const next = valid[g] ? out[g] + (this.#seps[i] ?? '') + this.#values[i]! : this.#values[i]!;
      // Concatenation makes ropes: checked at each step, the result fails before V8's string limit does.
      checkTextLength(next.length, 'string_agg()');
      out[g] = next;
      valid[g] = 1;
    }
    return makeColumn({ id: 'utf8' }, out, valid, ngroups);
  }

  /** ORDER BY's keys; with DISTINCT, PostgreSQL sorts by every argument: the value, then the separator. */
  #comparator(): ((i: number, j: number) => number) | null {
    const specs = this.call.orderBy ?? [];
    const keyTypes = this.call.args.slice(2).map((a) => a.type);
    const cmp =
      specs.length > 0
        ? chainComparators(specs.map((spec, k) => rowComparator(columnFromValues(keyTypes[k]!, this.#keys[k]!), spec)))
        : null;
    if (!this.call.distinct) return cmp;
    const values = this.#values;
    const seps = this.#seps;
    const first = cmp ?? ((i: number, j: number) => compareText(values[i]!, values[j]!));
    return (i, j) => first(i, j) || compareSeparators(seps[i]!, seps[j]!);
  }
}

/** Text order, NULL last (ASC's default). */
function compareSeparators(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compareText(a, b);
}
