// `JoinHashTable`: rows chained per key across build batches, NULL keys tracked but never matched, batch probes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { JoinHashTable } from '../../../../../engine/exec/operators/join-keys.js';
import { INT32, INT64, UTF8 } from '../../../../../engine/plan/types.js';

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

test('a build where every row has its own key pairs each probe row with that row, across batches', () => {
  const t = new JoinHashTable();
  t.add([ints([30, 10, 20])], 3);
  t.add([ints([50, 40])], 2);
  assert.deepEqual(pairsOf(t, [ints([40, 99, 30, null, 50, 10, 10])]), [
    [0, 4],
    [2, 0],
    [4, 3],
    [5, 1],
    [6, 1],
  ]);
  // A NULL key takes a row but no id: rows and ids no longer line up, and the chains give the rows.
  const withNull = new JoinHashTable();
  withNull.add([ints([null, 7, 8])], 3);
  assert.deepEqual(pairsOf(withNull, [ints([8, 7, 9])]), [
    [0, 2],
    [1, 1],
  ]);
  // A repeated key in the last batch: chains again.
  const repeated = new JoinHashTable();
  repeated.add([ints([5, 6])], 2);
  repeated.add([ints([6])], 1);
  assert.deepEqual(pairsOf(repeated, [ints([6, 5])]), [
    [0, 2],
    [0, 1],
    [1, 0],
  ]);
});

test('a build of known size in sorted batches: every key found whatever its first batch predicts', () => {
  // Batches of ascending keys (order keys in a lineitem build): the first batch's density of keys over their range
  // and of new keys per row sets the expected range, which later batches undershoot (sparser), overshoot or meet.
  const shapes: [string, (b: number, i: number) => number][] = [
    ['denser later', (b, i) => (b === 0 ? 4 * i : 4000 + b * 1000 + i)],
    ['sparser later', (b, i) => (b === 0 ? i : 1000 + b * 50_000 + 7 * i)],
    ['repeated keys', (b, i) => b * 500 + (i >> 1)],
  ];
  for (const [name, keyOf] of shapes) {
    const batches = Array.from({ length: 6 }, (_, b) => Array.from({ length: 1000 }, (_, i) => keyOf(b, i)));
    const total = batches.length * 1000;
    const t = new JoinHashTable();
    for (const keys of batches) t.add([ints(keys)], keys.length, total);
    const rowsOf = new Map<number, number[]>();
    for (const [row, k] of batches.flat().entries()) rowsOf.set(k, [row, ...(rowsOf.get(k) ?? [])]);
    const probe = [...rowsOf.keys(), -1, 3_000_000, 999_999];
    const expected = probe.flatMap((k, i) => (rowsOf.get(k) ?? []).map((row) => [i, row]));
    assert.deepEqual(pairsOf(t, [ints(probe)]), expected, name);
  }
});

const plain = (values: number[], type = INT32): Column =>
  makeColumn(type, type.id === 'int64' ? Float64Array.from(values) : Int32Array.from(values), null, values.length);

test('a build of consecutive keys in row order (a dimension table by its key) probes by subtraction', () => {
  const t = new JoinHashTable();
  t.add([plain([10, 11, 12])], 3, 5);
  t.add([plain([13, 14])], 2);
  // Below, inside, at both ends, above, a NULL, and the same probe as a Float64 int64 column with a fraction.
  assert.deepEqual(pairsOf(t, [ints([9, 12, 10, 14, 15, null])]), [
    [1, 2],
    [2, 0],
    [3, 4],
  ]);
  assert.deepEqual(pairsOf(t, [plain([12.5, 11, -0, 14], INT64)]), [
    [1, 1],
    [3, 4],
  ]);
  const wide = makeColumn(INT64, BigInt64Array.from([11n, 2n ** 60n, 14n]), null, 3);
  assert.deepEqual(pairsOf(t, [wide]), [
    [0, 1],
    [2, 4],
  ]);
});

test('a build that stops being consecutive (a gap, a repeat, a NULL) keeps every earlier row', () => {
  for (const next of [plain([4, 6]), plain([4, 4]), ints([4, null])]) {
    const t = new JoinHashTable();
    t.add([plain([1, 2, 3])], 3);
    t.add([next], 2);
    const probe = [1, 2, 3, 4, 5, 6];
    const got = pairsOf(t, [plain(probe)]).map(([l, r]) => `${probe[l!]}:${r}`);
    const want = [1, 2, 3].map((k) => `${k}:${k - 1}`);
    for (let i = 0; i < 2; i++) {
      const key = next.valid?.[i] === 0 ? null : (next.values as Int32Array)[i]!;
      if (key !== null && probe.includes(key)) want.push(`${key}:${3 + i}`);
    }
    assert.deepEqual(got.sort(), want.sort());
  }
  // Starting at 0 with -0 probed, and a first key that is not a whole number.
  const zero = new JoinHashTable();
  zero.add([plain([0, 1])], 2);
  assert.deepEqual(pairsOf(zero, [plain([-0], INT64)]), [[0, 0]]);
  const fraction = new JoinHashTable();
  fraction.add([makeColumn(INT64, Float64Array.from([0.5, 1.5]), null, 2)], 2);
  assert.deepEqual(pairsOf(fraction, [makeColumn(INT64, Float64Array.from([1.5]), null, 1)]), [[0, 1]]);
});

/** Every (probe row, build row) pair with equal keys, by a Map of each key's rows (newest first). */
function referencePairs(build: (number | null)[], probe: (number | null)[]): number[][] {
  const rowsOf = new Map<number, number[]>();
  build.forEach((k, row) => {
    if (k !== null) rowsOf.set(k, [row, ...(rowsOf.get(k) ?? [])]);
  });
  return probe.flatMap((k, i) => (k === null ? [] : (rowsOf.get(k) ?? [])).map((row) => [i, row]));
}

test('a build of increasing keys with gaps (orders filtered in key order) finds every key in any probe order', () => {
  // Consecutive at first (dense), then eight keys of every 32 as TPC-H's order keys, in three batches.
  const batches = [
    [5, 6, 7, 8],
    Array.from({ length: 400 }, (_, i) => 32 + 32 * (i >> 3) + (i & 7)),
    Array.from({ length: 300 }, (_, i) => 4000 + 3 * i),
  ];
  const build = batches.flat();
  const t = new JoinHashTable();
  for (const keys of batches) t.add([plain(keys)], keys.length, build.length);
  const ascending = Array.from({ length: 5000 }, (_, i) => i - 3);
  const descending = [...ascending].reverse();
  let s = 17;
  const shuffled = ascending.map(() => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((s / 2 ** 31) * 5200) - 100;
  });
  for (const probe of [ascending, descending, shuffled]) {
    assert.deepEqual(pairsOf(t, [plain(probe)]), referencePairs(build, probe));
  }
  // NULLs, fractions and NaN match nothing; an int64 past 2^53 takes the index.
  // Key 38 is build row 10, 4003 row 405.
  assert.deepEqual(pairsOf(t, [ints([null, 38, 2, 4003, null, 9])]), [
    [1, 10],
    [3, 405],
  ]);
  assert.deepEqual(pairsOf(t, [makeColumn(INT64, Float64Array.from([38.5, 38, Number.NaN, -0, 4003]), null, 5)]), [
    [1, 10],
    [4, 405],
  ]);
  const wide = makeColumn(INT64, BigInt64Array.from([2n ** 60n, 38n, 4003n]), null, 3);
  assert.deepEqual(pairsOf(t, [wide]), [
    [1, 10],
    [2, 405],
  ]);
});

test('a build whose keys stop increasing (a repeat, a smaller key, a NULL) keeps every earlier row', () => {
  for (const next of [
    [20, 20],
    [15, 30],
    [null, 40],
  ]) {
    const t = new JoinHashTable();
    t.add([plain([1, 2, 3])], 3);
    t.add([plain([10, 12])], 2);
    t.add([ints(next)], 2);
    const build = [1, 2, 3, 10, 12, ...next];
    const probe = [0, 1, 3, 10, 11, 12, 15, 20, 30, 40];
    assert.deepEqual(pairsOf(t, [plain(probe)]), referencePairs(build, probe), String(next));
  }
});
