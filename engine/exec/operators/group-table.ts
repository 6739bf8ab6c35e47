// `GroupTable`: the groups of one grouping set and their aggregate states, fed batch by batch.
import { type Column, isSorted } from '../../arrow/column.js';
import { take } from '../../arrow/kernels/take.js';
import { exprText } from '../../plan/expr/display.js';
import type { AggregateCall } from '../../plan/logical/index.js';
import type { DataType } from '../../plan/types.js';
import { type Accumulator, makeAccumulator } from './accumulators.js';
import { BatchRows } from './batch-rows.js';
import { GroupKeys } from './group-keys.js';
import { SumAcc } from './sum-accumulator.js';

/** One aggregate's input for a batch: its argument column and, under FILTER, the rows that pass. */
export interface AggregateInput {
  readonly values: Column | null;
  /** Row indexes kept by FILTER (WHERE …); `null` = every row. */
  readonly keep: Int32Array | null;
  /** Further per-row inputs of the aggregate, taken by `keep` like `values`. */
  readonly extra: readonly Column[];
}

export class GroupTable {
  /** Indexes of the GROUP BY columns this table groups by (empty = one global group). */
  readonly columns: readonly number[];
  readonly keys: GroupKeys;
  readonly #accs: Accumulator[];

  /** `types`: the type of each GROUP BY column this table groups by. */
  constructor(columns: readonly number[], types: readonly DataType[], calls: readonly AggregateCall[]) {
    this.columns = columns;
    this.keys = new GroupKeys(types);
    this.#accs = withSharedSums(calls);
  }

  /** Groups before a batch, for `BatchRows.firstRows` (a key table numbers new groups in row order; not global). */
  #before(): number | undefined {
    return this.columns.length === 0 ? undefined : this.keys.size;
  }

  /** Groups in the table; a global table always has its one group, even over no rows. */
  get size(): number {
    return this.columns.length === 0 ? 1 : this.keys.size;
  }

  /** Adds a batch: `keys` = every GROUP BY column evaluated, `inputs` = one entry per aggregate (values taken by `keep`). */
  update(keys: readonly Column[], n: number, inputs: readonly AggregateInput[]): void {
    const before = this.#before();
    const groups = this.#groups(keys, n);
    const ngroups = this.size;
    const rows = new BatchRows(groups, n, ngroups, before);
    this.#accs.forEach((acc, j) => {
      const { values, extra, keep } = inputs[j]!;
      if (keep === null) acc.update(groups, n, values, ngroups, extra, rows);
      else acc.update(takeGroups(groups, keep), keep.length, values, ngroups, extra);
    });
  }

  /**
   * Adds the rows `sel[0..n)` of a batch (a filter's survivors): `keys` = the GROUP BY columns and `args` = each
   * aggregate's argument, all over the whole batch and read through `sel` (copied only where a key table or an
   * accumulator cannot read selections). Aggregates here have no FILTER and no further arguments.
   */
  updateSelected(keys: readonly Column[], n: number, sel: Int32Array, args: readonly (Column | null)[]): void {
    const before = this.#before();
    const groups = this.#groups(keys, n, sel);
    const ngroups = this.size;
    const rows = new BatchRows(groups, n, ngroups, before);
    this.#accs.forEach((acc, j) => {
      const arg = args[j]!;
      if (acc.updateSelected) acc.updateSelected(groups, n, arg, ngroups, sel, rows);
      else acc.update(groups, n, arg === null ? null : take(arg, sel, n), ngroups, [], rows);
    });
  }

  /**
   * After the first batch (`keys`, `n` rows) of an input of `total` rows: when the table groups by one column and
   * that column came sorted (a table loaded in key order: each group's rows in one run), the rest is expected to
   * bring groups at the first batch's rate, and the key table and the accumulators are sized for them at once
   * instead of by doublings (q18's 1.5M order keys: 67 MB of direct ids in 7 steps and 33 MB per sum state).
   */
  expectFrom(keys: readonly Column[], n: number, total: number): void {
    const key = this.columns.length === 1 ? keys[this.columns[0]!] : undefined;
    if (key === undefined || n === 0 || total <= n || !isSorted(key)) return;
    const expected = Math.min(total, Math.ceil((this.keys.size * total) / n));
    if (expected <= this.keys.size) return;
    this.keys.reserve(expected - this.keys.size);
    for (const acc of this.#accs) acc.reserve?.(expected);
  }

  /** The group id of each of `n` rows (`sel[0..n)` when given; adding new groups); all 0 for the global group. */
  #groups(keys: readonly Column[], n: number, sel: Int32Array | null = null): Int32Array {
    if (this.columns.length === 0) return zeros(n);
    return this.keys.assign(
      this.columns.map((c) => keys[c]!),
      n,
      sel,
    );
  }

  /** The aggregate columns, one value per group. */
  finish(): Column[] {
    return this.#accs.map((a) => a.finish(this.size));
  }
}

/**
 * Group ids of a global aggregate: n zeros out of one array shared by every table of the thread (accumulators only
 * read group ids), instead of a fresh zeroed array per batch.
 */
let shared = new Int32Array(0);
function zeros(n: number): Int32Array {
  if (shared.length < n) shared = new Int32Array(Math.max(n, 2 * shared.length));
  return shared.subarray(0, n);
}

/**
 * One accumulator per call, except that SUM and AVG of the same argument (no DISTINCT, no FILTER) share one state:
 * the later call finishes from the earlier's sums and counts instead of adding every row again.
 */
function withSharedSums(calls: readonly AggregateCall[]): Accumulator[] {
  const owners = new Map<string, SumAcc>();
  return calls.map((call) => {
    const plain = (call.fn === 'sum' || call.fn === 'avg') && !call.distinct && call.filter === null;
    const key = plain && call.args.length === 1 ? exprText(call.args[0]!) : null;
    const owner = key === null ? undefined : owners.get(key);
    if (owner !== undefined) return owner.sharedAs(call.fn === 'avg', call.type);
    const acc = makeAccumulator(call);
    if (key !== null && acc instanceof SumAcc) owners.set(key, acc);
    return acc;
  });
}

/** The FILTER-kept rows of an aggregate's argument (shared by every table of the batch). */
export function keptValues(values: Column | null, keep: Int32Array | null): Column | null {
  return values && keep ? take(values, keep) : values;
}

function takeGroups(groups: Int32Array, keep: Int32Array): Int32Array {
  const out = new Int32Array(keep.length);
  for (let i = 0; i < keep.length; i++) out[i] = groups[keep[i]!]!;
  return out;
}
