// `GroupTable.expectFrom`: a group table over a sorted key sizes itself from its first batch's rate of groups. The
// sums and counts must come out the same whether later batches bring fewer, as many or more groups than expected,
// and nothing is sized for a key that did not come sorted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn, markSorted } from '../../../../../engine/arrow/column.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { GroupNumbers } from '../../../../../engine/exec/operators/group-numbers.js';
import { GroupTable } from '../../../../../engine/exec/operators/group-table.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import type { AggregateCall } from '../../../../../engine/plan/logical/index.js';
import { INT32, INT64 } from '../../../../../engine/plan/types.js';

const X: Expr = { kind: 'column', qualifier: null, name: 'x', type: INT64 } as Expr;
const CALLS: AggregateCall[] = [
  { fn: 'sum', args: [X], distinct: false, filter: null, type: INT64, name: 'sum' },
  { fn: 'count', args: [], distinct: false, filter: null, type: INT64, name: 'count' },
];

/**
 * Batches of sorted keys: batch b holds `rowsPerKey[b]` rows per key, keys continuing from the last batch's (so a
 * dense first batch expects fewer groups than come, a sparse one more), and x = key.
 */
function batches(rowsPerKey: readonly number[], rows: number): { key: Column; x: Column }[] {
  let next = 1_000_000;
  return rowsPerKey.map((per) => {
    const keys = Int32Array.from({ length: rows }, (_, i) => next + Math.floor(i / per));
    next = keys[rows - 1]! + 1;
    markSorted(keys);
    const x = Float64Array.from(keys);
    return { key: makeColumn(INT32, keys, null, rows), x: makeColumn(INT64, x, null, rows) };
  });
}

function run(input: { key: Column; x: Column }[], expect: boolean): string[] {
  const table = new GroupTable([0], [INT32], CALLS);
  const total = input.reduce((n, b) => n + b.key.length, 0);
  for (const [i, { key, x }] of input.entries()) {
    const inputs = [
      { values: x, extra: [], keep: null },
      { values: null, extra: [], keep: null },
    ];
    table.update([key], key.length, inputs);
    if (expect && i === 0) table.expectFrom([key], key.length, total);
  }
  const [sum, count] = table.finish();
  const keys = table.keys.column(0, INT32);
  return Array.from(
    { length: table.size },
    (_, g) => `${cellText(keys, g)}:${cellText(sum!, g)}:${cellText(count!, g)}`,
  );
}

for (const [what, perKey] of [
  ['later batches bring more groups than the first', [8, 2, 1, 1]],
  ['later batches bring fewer groups than the first', [1, 4, 16, 3]],
  ['every batch alike', [4, 4, 4, 4]],
] as const) {
  test(`group table sized from a sorted first batch: ${what}`, () => {
    const input = batches(perKey, 5000);
    assert.deepEqual(run(input, true), run(input, false));
    assert.equal(
      run(input, true).length,
      perKey.reduce((n, p) => n + Math.ceil(5000 / p), 0),
    );
  });
}

test('group numbers: a reservation keeps the values so far and fills the new slots', () => {
  const g = new GroupNumbers(-1);
  g.ensure(3).set([5, 6, 7]);
  g.reserve(1000);
  assert.equal(g.values.length, 1000);
  assert.deepEqual([...g.values.subarray(0, 4)], [5, 6, 7, -1]);
  assert.equal(g.values[999], -1);
  g.reserve(10);
  assert.equal(g.values.length, 1000, 'a smaller reservation changes nothing');
});
