// `JoinHashTable`: rows chained per key across build batches, NULL keys tracked but never matched, batch probes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { JoinHashTable } from '../../../../../engine/exec/operators/join-keys.js';
import { INT32, UTF8 } from '../../../../../engine/plan/types.js';

const ints = (values: (number | null)[]): Column =>
  makeColumn(
    INT32,
    Int32Array.from(values, (v) => v ?? 0),
    Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
    values.length,
  );

const pairsOf = (t: JoinHashTable, keys: Column[]) => {
  const p = t.probe(keys, keys[0]!.length);
  return Array.from({ length: p.count }, (_, i) => [p.left[i], p.right[i]]);
};

test('probe pairs: probe rows ascending, each one with its build rows newest first, across build batches', () => {
  const t = new JoinHashTable();
  t.add([ints([1, 2, 1])], 3);
  t.add([ints([2, 1, null])], 3);
  assert.equal(t.hasNullKey, true);
  assert.deepEqual(pairsOf(t, [ints([1, 3, null, 2])]), [
    [0, 4],
    [0, 2],
    [0, 0],
    [3, 3],
    [3, 1],
  ]);
});

test('multi-column keys and an empty build side', () => {
  const empty = new JoinHashTable();
  assert.equal(pairsOf(empty, [ints([1])]).length, 0);
  assert.equal(empty.hasNullKey, false);
  const t = new JoinHashTable();
  t.add([ints([1, 1, 2]), makeColumn(UTF8, ['a', 'b', 'a'], null, 3)], 3);
  assert.deepEqual(pairsOf(t, [ints([1, 2, 2]), makeColumn(UTF8, ['b', 'a', 'b'], null, 3)]), [
    [0, 1],
    [1, 2],
  ]);
});

test('firstOnly: one pair per matching probe row, its newest build row', () => {
  const t = new JoinHashTable();
  t.add([ints([1, 2, 1, 1])], 4);
  const p = t.probe([ints([1, 5, 2])], 3, true);
  assert.deepEqual(
    Array.from({ length: p.count }, (_, i) => [p.left[i], p.right[i]]),
    [
      [0, 3],
      [2, 1],
    ],
  );
});
