// The int64 key tables: `Int64KeyTable` (int32 halves, no BigInt per row) and `WideIntKeyTable`, which starts as the
// number table and moves there at the first BigInt64-backed batch: dense first-seen ids across the move, NULLs,
// negatives, values beyond 2^53, growth, and the keys out in the columns' form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { InternalError } from '../../../../../engine/errors.js';
import { halvesColumn, int64Halves } from '../../../../../engine/exec/hash/int64-halves.js';
import { Int64KeyTable } from '../../../../../engine/exec/hash/int64-key-table.js';
import { type KeyIndex, makeKeyIndex } from '../../../../../engine/exec/hash/key-index.js';
import { WideIntKeyTable } from '../../../../../engine/exec/hash/wide-int-key-table.js';
import { decimal, FLOAT64, INT64, NULL } from '../../../../../engine/plan/types.js';

const validity = (values: readonly unknown[]) => Uint8Array.from(values, (v) => (v === null ? 0 : 1));
const bigs = (values: (bigint | null)[]): Column =>
  makeColumn(
    INT64,
    BigInt64Array.from(values, (v) => v ?? 12345n),
    validity(values),
    values.length,
  );
const floats = (values: (number | null)[]): Column =>
  makeColumn(
    INT64,
    Float64Array.from(values, (v) => v ?? 7),
    validity(values),
    values.length,
  );
const insert = (t: KeyIndex, col: Column) => [...t.insert([col], col.length)];
const find = (t: KeyIndex, col: Column) => [...t.find([col], col.length)];

const B = 2n ** 62n + 3n;
const tables = (nullsEqual: boolean): [string, () => KeyIndex][] => [
  ['int64', () => new Int64KeyTable(nullsEqual)],
  ['wide', () => new WideIntKeyTable(INT64, nullsEqual)],
];

test('makeKeyIndex: one int64 or decimal key gets the wide table', () => {
  assert.ok(makeKeyIndex([INT64], true) instanceof WideIntKeyTable);
  assert.ok(makeKeyIndex([decimal(18, 2)], false) instanceof WideIntKeyTable);
});

test('halves: a BigInt64Array is viewed in place; doubles and bigints of one value give one pair', () => {
  const v = BigInt64Array.of(-1n, 2n ** 40n + 5n, -(2n ** 63n), 2n ** 63n - 1n);
  const view = int64Halves(makeColumn(INT64, v, null, 4), 4);
  assert.equal(view.pairs.buffer, v.buffer);
  const conv = int64Halves(floats([-1, 2 ** 40 + 5, -(2 ** 53) + 1, 2 ** 53 - 1]), 4);
  assert.deepEqual([...conv.pairs.subarray(0, 4)], [...view.pairs.subarray(0, 4)]);
  const exact = int64Halves(makeColumn(INT64, BigInt64Array.of(-(2n ** 53n) + 1n, 2n ** 53n - 1n), null, 2), 2);
  assert.deepEqual([...conv.pairs.subarray(4)], [...exact.pairs]);
  assert.equal(conv.misfit, null);
  assert.deepEqual(
    [...int64Halves(makeColumn(FLOAT64, Float64Array.of(1, 0.5, Number.NaN), null, 3), 3).misfit!],
    [0, 1, 1],
  );
  // Back out: bigints only when some value is beyond 2^53.
  const back = halvesColumn(INT64, view.pairs, null, 4);
  assert.deepEqual([...(back.values as BigInt64Array)], [...v]);
  const small = halvesColumn(INT64, conv.pairs, Uint8Array.of(1, 0, 1, 1), 4);
  assert.deepEqual([...(small.values as Float64Array)], [-1, 0, -(2 ** 53) + 1, 2 ** 53 - 1]);
});

for (const [name, make] of tables(true)) {
  test(`${name}: dense first-seen ids over bigints and doubles alike, NULL one key`, () => {
    const t = make();
    assert.deepEqual(insert(t, floats([5, -3, null, 5, 0])), [0, 1, 2, 0, 3]);
    assert.deepEqual(insert(t, bigs([B, -B, 5n, null, B, -3n, 0n, -1n])), [4, 5, 0, 2, 4, 1, 3, 6]);
    assert.deepEqual(insert(t, floats([-1, 9, 5])), [6, 7, 0]);
    assert.deepEqual(find(t, bigs([-B, B + 1n, 9n, null, 2n ** 32n - 1n])), [5, -1, 7, 2, -1]);
    assert.deepEqual(find(t, floats([0, 4294967295, -3, null])), [3, -1, 1, 2]);
    const out = t.column(0, INT64);
    assert.deepEqual([...(out.values as BigInt64Array)], [5n, -3n, 0n, 0n, B, -B, -1n, 9n]);
    assert.deepEqual([...out.valid!], [1, 1, 0, 1, 1, 1, 1, 1]);
  });
}

for (const [name, make] of tables(false)) {
  test(`${name}: NULL keys never match when NULLs are not keys`, () => {
    const t = make();
    assert.deepEqual(insert(t, bigs([null, B, null, B])), [-1, 0, -1, 0]);
    assert.deepEqual(find(t, bigs([null, B, 1n])), [-1, 0, -1]);
    assert.equal(t.size, 1);
    assert.equal(t.column(0, INT64).valid, null);
  });
}

for (const [name, make] of tables(true)) {
  test(`${name}: grows through many doublings; keys sharing their low or high halves stay apart`, () => {
    const t = make();
    const n = 60_000;
    // Half the keys share their low 32 bits, half their high 32 bits.
    const keys = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? BigInt(i) << 32n : (B << 1n) + BigInt(i)));
    const seen: number[] = [];
    for (let s = 0; s < n; s += 7000) seen.push(...insert(t, bigs(keys.slice(s, s + 7000))));
    assert.deepEqual(
      seen,
      keys.map((_, i) => i),
    );
    const again = find(t, bigs([...keys].reverse()));
    assert.deepEqual(
      again,
      keys.map((_, i) => n - 1 - i),
    );
    t.reserve(100_000);
    assert.deepEqual(find(t, bigs(keys.slice(0, 3))), [0, 1, 2]);
  });
}

test('wide: moves to halves at the first bigint batch keeping every id; reserve and expectRows pass through', () => {
  const t = new WideIntKeyTable(INT64, true);
  t.expectRows(1000);
  t.reserve(10);
  assert.deepEqual(insert(t, floats([1, 2, null, 3])), [0, 1, 2, 3]);
  assert.deepEqual(insert(t, bigs([3n, B, null, 1n])), [3, 4, 2, 0]);
  assert.deepEqual(insert(t, makeColumn(NULL, null, new Uint8Array(2), 2)), [2, 2]);
  assert.equal(t.size, 5);
});

test('int64: a non-integer probe matches nothing; inserting one is an internal error', () => {
  const t = new Int64KeyTable(true);
  insert(t, floats([1, 2]));
  assert.deepEqual(find(t, makeColumn(FLOAT64, Float64Array.of(1.5, 2, Number.NaN), null, 3)), [-1, 1, -1]);
  assert.throws(() => insert(t, makeColumn(FLOAT64, Float64Array.of(0.5), null, 1)), InternalError);
});
