// `DistinctAcc`: an aggregate over each group's distinct values (COUNT/SUM/AVG/MIN/MAX(DISTINCT x)): the (group,
// value) pairs go into one table per aggregate, hashed per batch, and the inner accumulator folds them once at the end.
import { type Column, MAX_EXACT, makeColumn, narrowExact } from '../../arrow/column.js';
import type { DataType } from '../../plan/types.js';
import { type Accumulator, columnFromValues, type Key, valueReader } from './accumulators.js';
import { DistinctPairs } from './distinct-pairs.js';
import { Int64Pairs } from './int64-pairs.js';
import { TextPairs } from './text-pairs.js';

/**
 * Where the pairs are kept, by what the batches hold: numbers in Int32Array / Float64Array (`DistinctPairs`);
 * int64 / decimal values once one passes 2^53 (`Int64Pairs`, the numbers moved there); text as UTF-8 bytes
 * (`TextPairs`); anything else (booleans, a mix of forms) in a Set per group, where the other stores move to.
 */
type Store =
  | { readonly kind: 'none' }
  | { readonly kind: 'numbers'; readonly pairs: DistinctPairs }
  | { readonly kind: 'int64'; readonly pairs: Int64Pairs }
  | { readonly kind: 'text'; readonly pairs: TextPairs }
  | { readonly kind: 'sets'; readonly sets: Set<Key>[] };

export class DistinctAcc implements Accumulator {
  #store: Store = { kind: 'none' };

  /** `counting`: the inner accumulator is COUNT, so each group's pairs are counted without making a column. */
  constructor(
    readonly inner: Accumulator,
    readonly argType: DataType,
    readonly counting: boolean,
  ) {}

  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    const col = arg!;
    const store = this.#storeFor(col);
    switch (store.kind) {
      case 'numbers':
        store.pairs.add(groups, n, col.values as Int32Array | Float64Array, col.valid);
        return;
      case 'int64':
        store.pairs.add(groups, n, col.values as Float64Array | BigInt64Array, col.valid);
        return;
      case 'text':
        store.pairs.add(groups, n, col);
        return;
    }
    const sets = this.#toSets(ngroups);
    const read = valueReader(col);
    for (let i = 0; i < n; i++) {
      const x = read(i);
      if (x !== null) sets[groups[i]!]!.add(typeof x === 'bigint' && x <= MAX_EXACT && x >= -MAX_EXACT ? Number(x) : x);
    }
  }

  /** The store for a batch of `col` (made, or moved to another kind, as its values require). */
  #storeFor(col: Column): Store {
    const s = this.#store;
    const v = col.values;
    const int64 = this.argType.id === 'int64' || this.argType.id === 'decimal';
    if (s.kind === 'sets' || col.type.id === 'null') return s;
    if (s.kind === 'text' || (s.kind === 'none' && this.argType.id === 'utf8' && col.type.id === 'utf8')) {
      if (s.kind === 'none') this.#store = { kind: 'text', pairs: new TextPairs() };
      return this.#store;
    }
    if (s.kind === 'int64' && (v instanceof Float64Array || v instanceof BigInt64Array)) return s;
    const int32 = v instanceof Int32Array;
    if (s.kind === 'none' && (int32 || v instanceof Float64Array)) {
      this.#store = { kind: 'numbers', pairs: new DistinctPairs(int32) };
      return this.#store;
    }
    if (s.kind === 'numbers' && int64 && s.pairs.hashing && !s.pairs.int32 && v instanceof Float64Array) {
      // Integers past int32 or over a wide range: partitioned by hash (`Int64Pairs`), not one table over all pairs.
      return this.#toInt64(s.pairs);
    }
    if (
      s.kind === 'numbers' &&
      (int32 ? v instanceof Int32Array : v instanceof Float64Array) &&
      s.pairs.int32 === int32
    )
      return s;
    if (int64 && v instanceof BigInt64Array && (s.kind === 'none' || (s.kind === 'numbers' && !s.pairs.int32))) {
      // An int64 past 2^53: every pair from now on as two Int32 halves.
      return this.#toInt64(s.kind === 'numbers' ? s.pairs : null);
    }
    this.#toSets(0);
    return this.#store;
  }

  /** Moves to an `Int64Pairs` store, with the pairs of `numbers` (int64 or decimal values, exact) when given. */
  #toInt64(numbers: DistinctPairs | null): Store {
    const pairs = new Int64Pairs();
    if (numbers !== null) {
      const moved = numbers.pairs();
      pairs.add(moved.groups, moved.groups.length, moved.values as Float64Array, null);
    }
    this.#store = { kind: 'int64', pairs };
    return this.#store;
  }

  finish(ngroups: number): Column {
    const s = this.#store;
    if (this.counting && s.kind !== 'sets') {
      return makeColumn({ id: 'int64' }, this.#counts(ngroups), null, ngroups);
    }
    const { groups, values } = this.#pairs(ngroups);
    this.inner.update(groups, groups.length, values, ngroups);
    return this.inner.finish(ngroups);
  }

  #counts(ngroups: number): Float64Array {
    const s = this.#store;
    if (s.kind === 'int64' || s.kind === 'text') return s.pairs.counts(ngroups);
    const out = new Float64Array(ngroups);
    if (s.kind === 'numbers') for (const g of s.pairs.pairs().groups) out[g]!++;
    return out;
  }

  /** Every distinct pair: its group, and the values as a column of the argument's type. */
  #pairs(ngroups: number): { groups: Int32Array; values: Column } {
    const s = this.#store;
    const type = this.argType;
    switch (s.kind) {
      case 'none':
        return { groups: new Int32Array(0), values: makeColumn(type, new Float64Array(0), null, 0) };
      case 'numbers':
      case 'int64':
      case 'text': {
        const { groups, values } = s.pairs.pairs();
        const v = values instanceof BigInt64Array ? narrowExact(values) : values;
        return { groups, values: makeColumn(type, v, null, groups.length) };
      }
      case 'sets': {
        const values: Key[] = [];
        const groups: number[] = [];
        this.#toSets(ngroups).forEach((set, g) => {
          for (const v of set) {
            values.push(v);
            groups.push(g);
          }
        });
        return { groups: Int32Array.from(groups), values: columnFromValues(type, values) };
      }
    }
  }

  /** The Sets (made, grown to `ngroups`, and holding the pairs collected so far). */
  #toSets(ngroups: number): Set<Key>[] {
    if (this.#store.kind !== 'sets') {
      const sets: Set<Key>[] = [];
      if (this.#store.kind !== 'none') {
        const { groups, values } = this.#pairs(0);
        const read = valueReader(values);
        for (let i = 0; i < groups.length; i++) {
          while (sets.length <= groups[i]!) sets.push(new Set());
          const x = read(i)!;
          sets[groups[i]!]!.add(typeof x === 'bigint' && x <= MAX_EXACT && x >= -MAX_EXACT ? Number(x) : x);
        }
      }
      this.#store = { kind: 'sets', sets };
    }
    const sets = (this.#store as { sets: Set<Key>[] }).sets;
    while (sets.length < ngroups) sets.push(new Set());
    return sets;
  }
}
