// Per-group aggregate state: COUNT, SUM (exact for integers and decimals), AVG, MIN, MAX, ANY_VALUE; DISTINCT
// lives in distinct-acc.ts, the others in variance-accumulator.ts and string-agg-accumulator.ts.
import { type Column, constantColumn, makeColumn, narrowExact, strings } from '../../arrow/column.js';
import { concatLazily, gatherColumns, gatheredFrom, takeRows } from '../../arrow/gathered-column.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import type { DataType } from '../../plan/types.js';
import type { BatchRows } from './batch-rows.js';
import { DistinctAcc } from './distinct-acc.js';
import { GroupNumbers } from './group-numbers.js';
import { MinMaxAcc } from './min-max-accumulator.js';
import { StringAggAcc } from './string-agg-accumulator.js';
import { SumAcc } from './sum-accumulator.js';
import { BoolAcc, VarianceAcc } from './variance-accumulator.js';

export type Key = number | bigint | string | boolean;

export interface Accumulator {
  /** Optional: makes room for `ngroups` groups at once (the aggregate expects that many), instead of by doublings. */
  reserve?(ngroups: number): void;
  /**
   * Adds rows of `arg` (absent for COUNT(*)) to groups `groups[i]`; `ngroups` is the current group count.
   * `extra` holds the call's further arguments (string_agg's separator and ORDER BY keys), row-aligned. `rows`,
   * when given, counts these same `groups[0..n)` per group (shared by the batch's accumulators).
   */
  update(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    extra?: readonly Column[],
    rows?: BatchRows,
  ): void;
  /**
   * Optional: as `update`, but row j of the batch is `arg` row `sel[j]` (a filter's selection: the argument was
   * evaluated over the whole batch and is not copied). Accumulators without it get `arg` taken by `sel`.
   */
  updateSelected?(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    sel: Int32Array,
    rows?: BatchRows,
  ): void;
  finish(ngroups: number): Column;
}

/** Reads row i of a column as a plain JS value (null for NULL). */
export function valueReader(c: Column): (i: number) => Key | null {
  const valid = c.type.id === 'null' ? new Uint8Array(c.length) : c.valid;
  const v = c.type.id === 'utf8' ? strings(c) : (c.values as ArrayLike<number | bigint> | null);
  if (v === null) return () => null;
  const bool = c.type.id === 'bool';
  if (valid === null) return bool ? (i) => v[i] === 1 : (i) => v[i] as Key;
  return (i) => (valid[i] === 0 ? null : bool ? v[i] === 1 : (v[i] as Key));
}

export function makeAccumulator(call: AggregateCall): Accumulator {
  // string_agg applies DISTINCT itself (it carries a separator and sort keys per row).
  if (call.fn === 'string_agg') return new StringAggAcc(call);
  const inner = makeInner(call);
  return call.distinct ? new DistinctAcc(inner, call.args[0]!.type, call.fn === 'count') : inner;
}

function makeInner(call: AggregateCall): Accumulator {
  const argType = call.args[0]?.type;
  switch (call.fn) {
    case 'count':
      return new CountAcc(call.args.length === 0);
    case 'min':
    case 'max':
      return new MinMaxAcc(call.fn, call.type);
    case 'sum':
    case 'avg':
      return new SumAcc(call.fn === 'avg', call.type, argType!);
    case 'bool_and':
    case 'bool_or':
      return new BoolAcc(call.fn === 'bool_and');
    case 'var_samp':
    case 'var_pop':
    case 'stddev_samp':
    case 'stddev_pop':
      return new VarianceAcc(call.fn, argType?.id === 'decimal' ? argType.scale : 0);
    case 'string_agg':
      return new StringAggAcc(call);
    case 'any_value':
      return new AnyValueAcc(call.type);
  }
}

/** Rows and groups an `AnyValueAcc.update` picks (one thread, used synchronously). */
let scratchRows = new Int32Array(0);
let scratchIds = new Int32Array(0);

/**
 * any_value: the first non-NULL value each group sees (NULL when it sees none). The planner uses it for GROUP BY
 * columns that depend on a key column (every row of a group holds the same value), so the key table hashes the
 * key alone and the other columns are copied once per group, not compared on every row.
 */
class AnyValueAcc implements Accumulator {
  /** Per group: 1 once it has its value. */
  #has = new Uint8Array(64);
  /** Groups that have their value; equal to the groups before a batch when every one of them has it. */
  #filled = 0;
  /**
   * Batch by batch, the groups that took their value and where it lies: rows of `source`, which is the column a
   * join's output gathers the argument from (nothing copied until `finish`) or else the values copied.
   */
  readonly #parts: { source: Column; rows: Int32Array | null; groups: Int32Array }[] = [];
  constructor(readonly type: DataType) {}

  update(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    _extra?: readonly Column[],
    batch?: BatchRows,
  ): void {
    if (this.#has.length < ngroups) {
      const grown = new Uint8Array(Math.max(ngroups, this.#has.length * 2));
      grown.set(this.#has);
      this.#has = grown;
    }
    if (arg === null || arg.type.id === 'null') return;
    const has = this.#has;
    const valid = arg.valid;
    // Every earlier group has its value and no row is NULL: the new groups' first rows are the batch's picks,
    // found once for all any_value calls.
    const first = valid === null && batch?.before === this.#filled ? batch.firstRows() : null;
    if (first !== null) {
      const k = first.ids.length;
      if (k === 0) return;
      for (let j = 0; j < k; j++) has[first.ids[j]!] = 1;
      this.#filled += k;
      this.#keep(arg, first.rows, first.ids, k);
      return;
    }
    if (scratchRows.length < n) {
      scratchRows = new Int32Array(Math.max(n, 4096));
      scratchIds = new Int32Array(scratchRows.length);
    }
    // Typed scratch, not pushes onto arrays: after the first batches most rows belong to groups that have a value.
    const rows = scratchRows;
    const ids = scratchIds;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const g = groups[i]!;
      if (has[g] === 0 && (valid === null || valid[i] === 1)) {
        has[g] = 1;
        rows[k] = i;
        ids[k++] = g;
      }
    }
    if (k === 0) return;
    this.#filled += k;
    this.#keep(arg, rows, ids, k);
  }

  /** Keeps rows `rows[0..k)` of `arg` as the values of groups `ids[0..k)`. */
  #keep(arg: Column, rows: Int32Array, ids: Int32Array, k: number): void {
    const from = gatheredFrom(arg);
    const groups = ids.slice(0, k);
    if (from === null || from.padded) {
      this.#parts.push({ source: takeRows(arg, rows.slice(0, k), k), rows: null, groups });
      return;
    }
    // The source's rows (a loop: `map` with a closure cost ~5 ms a query over Q10's 38k groups × 6 calls).
    const at = new Int32Array(k);
    const indices = from.indices;
    for (let j = 0; j < k; j++) at[j] = indices[rows[j]!]!;
    this.#parts.push({ source: from.source, rows: at, groups });
  }

  finish(ngroups: number): Column {
    const parts = this.#parts;
    if (parts.length === 0) return constantColumn(this.type, null, ngroups);
    // Each group's row of the sources (a join's build side, or each probe batch's chunk: Q10's customer columns),
    // gathered over the sources concatenated lazily: a TopK above (Q10's 20 of 37k customers) copies only the rows
    // it keeps, from the sources themselves.
    const sources: Column[] = [];
    const base = new Map<Column, number>();
    let length = 0;
    for (const p of parts) {
      if (base.has(p.source)) continue;
      base.set(p.source, length);
      sources.push(p.source);
      length += p.source.length;
    }
    const at = new Int32Array(ngroups).fill(-1);
    let taken = 0;
    for (const { source, rows, groups } of parts) {
      const from = base.get(source)!;
      for (let j = 0; j < groups.length; j++) at[groups[j]!] = from + (rows === null ? j : rows[j]!);
      taken += groups.length;
    }
    return gatherColumns([concatLazily(sources)], at, ngroups, taken !== ngroups)[0]!;
  }
}

class CountAcc implements Accumulator {
  readonly #counts = new GroupNumbers();
  constructor(readonly star: boolean) {}
  reserve(ngroups: number): void {
    this.#counts.reserve(ngroups);
  }
  update(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    _extra?: readonly Column[],
    rows?: BatchRows,
  ): void {
    const c = this.#counts.ensure(ngroups);
    const valid = arg === null ? null : arg.type.id === 'null' ? new Uint8Array(n) : arg.valid;
    if (valid !== null) for (let i = 0; i < n; i++) c[groups[i]!]! += valid[i]!;
    else if (rows?.addCountsTo(c) !== true) for (let i = 0; i < n; i++) c[groups[i]!]!++;
  }
  updateSelected(
    groups: Int32Array,
    n: number,
    arg: Column | null,
    ngroups: number,
    sel: Int32Array,
    rows?: BatchRows,
  ): void {
    const c = this.#counts.ensure(ngroups);
    const valid = arg === null ? null : arg.type.id === 'null' ? new Uint8Array(arg.length) : arg.valid;
    if (valid !== null) for (let i = 0; i < n; i++) c[groups[i]!]! += valid[sel[i]!]!;
    else if (rows?.addCountsTo(c) !== true) for (let i = 0; i < n; i++) c[groups[i]!]!++;
  }
  finish(ngroups: number): Column {
    return makeColumn({ id: 'int64' }, this.#counts.ensure(ngroups).slice(0, ngroups), null, ngroups);
  }
}

/** Builds a column of `type` from plain JS values (null = NULL). */
export function columnFromValues(type: DataType, values: readonly (Key | null)[]): Column {
  const n = values.length;
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) valid[i] = values[i] === null ? 0 : 1;
  const allValid = valid.every((x) => x === 1);
  const v = allValid ? null : valid;
  switch (type.id) {
    case 'utf8':
      return makeColumn(
        type,
        values.map((x) => (x === null ? '' : String(x))),
        v,
        n,
      );
    case 'bool':
      return makeColumn(
        type,
        Uint8Array.from(values, (x) => (x ? 1 : 0)),
        v,
        n,
      );
    case 'int32':
    case 'date':
      return makeColumn(
        type,
        Int32Array.from(values, (x) => Number(x ?? 0)),
        v,
        n,
      );
    case 'null':
      return makeColumn(type, null, new Uint8Array(n), n);
    default:
      if (values.some((x) => typeof x === 'bigint'))
        return makeColumn(
          type,
          narrowExact(BigInt64Array.from(values, (x) => BigInt((x as number | bigint) ?? 0))),
          v,
          n,
        );
      return makeColumn(
        type,
        Float64Array.from(values, (x) => Number(x ?? 0)),
        v,
        n,
      );
  }
}
