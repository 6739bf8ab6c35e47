// SUM/AVG/COUNT through a GroupTable: the values-only loops (counts shared per batch), the fused loop past
// MAX_COUNTED_GROUPS, NULLs, selections, a global group, and sums that leave the exact range mid-batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { MAX_COUNTED_GROUPS } from '../../../../../engine/exec/operators/batch-rows.js';
import { GroupTable } from '../../../../../engine/exec/operators/group-table.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import type { AggregateCall } from '../../../../../engine/plan/logical/index.js';
import type { DataType } from '../../../../../engine/plan/types.js';

const X: Expr = { kind: 'column', qualifier: null, name: 'x', type: { id: 'int64' } } as Expr;

function call(fn: AggregateCall['fn'], type: DataType, args: readonly Expr[] = [X]): AggregateCall {
  return { fn, args, distinct: false, filter: null, type, name: fn };
}

const CALLS = [
  call('sum', { id: 'int64' }),
  call('avg', { id: 'float64' }),
  call('count', { id: 'int64' }),
  call('count', { id: 'int64' }, []),
];

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

interface Case {
  readonly groups: number;
  readonly nullEvery: number | null;
  readonly selected: boolean;
  readonly big: boolean;
  /** The middle batch's values as a BigInt64Array (a column holding values beyond 2^53), the others as numbers. */
  readonly int64?: boolean;
}

/** Feeds 3 batches to a table and checks every group's sum, avg and counts against BigInt arithmetic. */
function check(c: Case, seed: number): void {
  const next = random(seed);
  const table = new GroupTable(c.groups === 1 ? [] : [0], c.groups === 1 ? [] : [{ id: 'int32' }], CALLS);
  const want = new Map<number, { sum: bigint; n: number; rows: number }>();
  for (let batch = 0; batch < 3; batch++) {
    const n = 5_000 + batch * 7;
    const keys = Int32Array.from({ length: n }, () => Math.floor(next() * c.groups));
    const values = Float64Array.from({ length: n }, () => {
      const v = Math.floor(next() * 2_000_001) - 1_000_000;
      return c.big ? v * 2 ** 31 : v;
    });
    // NULLs only in the middle batch: the others go through the values-only loops.
    const valid =
      c.nullEvery !== null && batch === 1 ? Uint8Array.from({ length: n }, (_, i) => (i % c.nullEvery! ? 1 : 0)) : null;
    const sel = c.selected ? Int32Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 1) : null;
    const rows = sel ?? Int32Array.from({ length: n }, (_, i) => i);
    for (const r of rows) {
      const g = c.groups === 1 ? 0 : keys[r]!;
      const w = want.get(g) ?? { sum: 0n, n: 0, rows: 0 };
      w.rows++;
      if (valid === null || valid[r] === 1) {
        w.sum += BigInt(values[r]!);
        w.n++;
      }
      want.set(g, w);
    }
    const key = makeColumn({ id: 'int32' }, keys, null, n);
    const stored = c.int64 && batch === 1 ? BigInt64Array.from(values, (v) => BigInt(v)) : values;
    const x: Column = makeColumn({ id: 'int64' }, stored, valid, n);
    if (sel === null)
      table.update(
        [key],
        n,
        [x, x, x, null].map((values) => ({ values, keep: null, extra: [] })),
      );
    else table.updateSelected([key], sel.length, sel, [x, x, x, null]);
  }
  const [sum, avg, count, star] = table.finish();
  const keyOf = (g: number) => (c.groups === 1 ? 0 : Number(cellText(table.keys.column(0, { id: 'int32' }), g)));
  for (let g = 0; g < table.size; g++) {
    const w = want.get(keyOf(g))!;
    const label = `${JSON.stringify(c)} group ${keyOf(g)}`;
    assert.equal(cellText(sum!, g), w.n === 0 ? null : String(w.sum), label);
    assert.equal(Number(cellText(count!, g)), w.n, label);
    assert.equal(Number(cellText(star!, g)), w.rows, label);
    if (w.n > 0)
      assert.ok(
        Math.abs(Number(cellText(avg!, g)) - Number(w.sum) / w.n) <= 1e-6 * Math.abs(Number(w.sum) / w.n) + 1e-9,
        label,
      );
  }
  assert.equal(table.size, want.size);
}

test('sums, averages and counts match BigInt arithmetic over every path', () => {
  let seed = 1;
  for (const groups of [1, 4, MAX_COUNTED_GROUPS + 500])
    for (const nullEvery of [null, 7])
      for (const selected of [false, true])
        for (const big of [false, true]) check({ groups, nullEvery, selected, big }, seed++);
});

test('a BigInt64Array batch between number batches adds exactly (its int32 halves), with NULLs and selections', () => {
  let seed = 100;
  for (const groups of [1, 4, MAX_COUNTED_GROUPS + 500])
    for (const nullEvery of [null, 7])
      for (const selected of [false, true]) check({ groups, nullEvery, selected, big: true, int64: true }, seed++);
});
