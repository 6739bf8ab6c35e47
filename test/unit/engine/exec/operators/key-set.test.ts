// `KeySet`: the build keys of a dynamic join filter, as a bitmap (dense integers) or a set, tested per probe row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sliceColumn } from '../../../../../engine/arrow/batch.js';
import { type Column, isSorted, makeColumn, markSorted } from '../../../../../engine/arrow/column.js';
import { selectBetween } from '../../../../../engine/arrow/kernels/select-compare.js';
import { KeySet } from '../../../../../engine/exec/operators/key-set.js';
import { FLOAT64, INT32, INT64 } from '../../../../../engine/plan/types.js';

const validity = (values: readonly (number | null)[]) =>
  values.includes(null) ? Uint8Array.from(values, (v) => (v === null ? 0 : 1)) : null;
const ints = (values: (number | null)[]): Column =>
  makeColumn(
    INT32,
    Int32Array.from(values, (v) => v ?? 0),
    validity(values),
    values.length,
  );
const floats = (values: (number | null)[]): Column =>
  makeColumn(
    values.some((v) => v !== null && !Number.isInteger(v)) ? FLOAT64 : INT64,
    Float64Array.from(values, (v) => v ?? 0),
    validity(values),
    values.length,
  );

const keySet = (...builds: Column[]) => {
  const keys = new KeySet();
  for (const b of builds) assert.ok(keys.add(b));
  keys.finish();
  return keys;
};
const selected = (keys: KeySet, probe: Column) => [...(keys.select(probe) ?? [])];
const probeAt = (c: Column, i: number) => (c.values as Int32Array | Float64Array)[i]!;

for (const [name, build, probe, expected] of [
  ['dense int32 keys (bitmap)', ints([3, 5, null, 64, 65]), ints([5, 4, 64, null, 65, 3, -1, 66]), [0, 2, 4, 5]],
  ['negative keys', ints([-40, -7, 0]), ints([-7, -8, 0, -40, 1]), [0, 2, 3]],
  // A NULL probe row holds 0 underneath, which is a key: validity alone rejects it.
  ['NULL probe rows over a key value', ints([0, 1]), ints([null, 1, 0, null]), [1, 2]],
  ['NULL int64 probe rows over a key value', floats([0, 1]), floats([null, 1, 0, null]), [1, 2]],
  // int64 keys just past 2^32: an int32 offset computed in 32 bits would wrap 5 onto 2^32 + 5.
  ['int32 probes against int64 keys past 2^32', floats([2 ** 32 + 5, 2 ** 32 + 6]), ints([5, 6, 7]), []],
  [
    'int32 probes far below the keys do not wrap into the range',
    ints([2 ** 30 - 3, 2 ** 30]),
    ints([-(2 ** 31), 2 ** 30, 2 ** 30 - 3, 2 ** 30 - 2, 2 ** 31 - 1, -(2 ** 30)]),
    [1, 2],
  ],
  [
    'int32 keys near the top of the range',
    ints([2 ** 31 - 5, 2 ** 31 - 1]),
    ints([2 ** 31 - 1, -(2 ** 31), 2 ** 31 - 5, 0]),
    [0, 2],
  ],
  ['int64 keys beyond int32 (bitmap)', floats([2 ** 40, 2 ** 40 + 33]), floats([2 ** 40 + 33, 2 ** 40 + 1, 33]), [0]],
  ['fractions and NaN never match integer keys', floats([1, 2, 3]), floats([1.5, 2, Number.NaN, 3.0000001]), [1]],
  ['sparse keys (set)', floats([1, 2 ** 45, -(2 ** 50)]), floats([2 ** 45, 2, -(2 ** 50), null, 1]), [0, 2, 4]],
  ['an empty build keeps nothing', ints([null]), ints([0, 1, null]), []],
  ['sparse int32 keys (set)', ints([1, 2 ** 30, -(2 ** 30)]), ints([2 ** 30, 2, -(2 ** 30), null, 1]), [0, 2, 4]],
] as const) {
  test(`KeySet: ${name}`, () => {
    // Mixed pass/fail so far: the branch-free loop.
    assert.deepEqual(selected(keySet(build), probe), expected);
    // After a batch where almost nothing passed: the branchy loop, same answer.
    const keys = keySet(build);
    const misses = Array.from({ length: 2000 }, (_, i) =>
      i === 0 ? (expected.length > 0 ? probeAt(probe, expected[0]!) : 1) : 1e12 + i,
    );
    selected(keys, floats(misses));
    assert.deepEqual(selected(keys, probe), expected);
  });
}

test('KeySet: a build column shorter than its values array keys only its own rows', () => {
  // Kept without a copy: the values past the column's length must not become keys.
  const keys = keySet(makeColumn(INT32, Int32Array.of(4, 6, 5, 99), null, 2));
  assert.deepEqual(selected(keys, ints([4, 5, 6, 99])), [0, 2]);
});

test('KeySet: int32 and float64 probe columns against the same keys', () => {
  const keys = keySet(ints([7, 9]), floats([11]));
  assert.deepEqual(selected(keys, ints([9, 10, 11, 7])), [0, 2, 3]);
  assert.deepEqual(selected(keys, floats([9, 10, 11.5, 11])), [0, 3]);
});

// Sorted probe columns (`markSorted`): the keys inside the column's range are visited one by one. The answer must be
// the row loop's, whichever way is taken (few keys: by key; many: the row loop; none in range: nothing).
const sortedInts = (values: number[]): Column => {
  const v = Int32Array.from(values);
  markSorted(v);
  return makeColumn(INT32, v, null, v.length);
};
const sortedFloats = (values: number[]): Column => {
  const v = Float64Array.from(values);
  markSorted(v);
  return makeColumn(INT64, v, null, v.length);
};
const unmarked = (c: Column): Column =>
  makeColumn(c.type, (c.values as Int32Array | Float64Array).slice(), null, c.length);

/** A column of `rows` rows, values 0, 0, 1, 1, 1, 5, ... (runs of 1-3 rows, gaps of 1-4): deterministic. */
function runs(rows: number, start = 0): number[] {
  const out: number[] = [];
  for (let key = start, i = 0; out.length < rows; i++) {
    for (let r = 0; r <= i % 3 && out.length < rows; r++) out.push(key);
    key += 1 + ((i * 7) % 4);
  }
  return out;
}

for (const [name, build, probeValues] of [
  ['few bitmap keys in a long run', [3, 40, 41, 977], runs(2000)],
  ['keys at the first and last value', [0, runs(2000).at(-1)!], runs(2000)],
  ['keys below and above the column only', [-5, 1_000_000], runs(2000)],
  ['no key inside the column range', [10, 20], runs(2000, 5000)],
  ['many keys: the row loop', Array.from({ length: 3000 }, (_, i) => i), runs(2000)],
  ['a set (sparse keys) with a few inside', [7, 1301, 2 ** 40, -(2 ** 41)], runs(2000)],
  ['a set with none inside', [2 ** 40, -(2 ** 41)], runs(2000)],
  ['one row', [4], [4]],
  // Runs found by skipping 16-row blocks: keys far apart, one in the last 16 rows, one past the last block.
  ['keys 40-200 rows apart and near the end', [0, 90, 91, 400, 1500, 2471, 2474, 2490, 2499, 2500], runs(2000)],
  ['keys in the same 32-bit word as the ends', [1, 2, 30, 31, 33], [2, 2, 3, 30, 31, 31, 32, 33]],
] as const) {
  test(`KeySet over a sorted column: ${name}`, () => {
    for (const column of [sortedInts, sortedFloats]) {
      const probe = column([...probeValues]);
      const expected = selected(keySet(ints([...build].filter((k) => Math.abs(k) < 2 ** 31))), unmarked(probe));
      const keys = keySet(floats([...build]));
      assert.deepEqual(selected(keys, probe), expected);
      assert.deepEqual(
        expected.map((i) => probeAt(probe, i)).every((x) => build.includes(x as never)),
        true,
      );
    }
  });
}

test('KeySet over a sorted column: slices keep the mark and the answer', () => {
  const probe = sortedInts(runs(5000));
  const slice = sliceColumn(probe, 1200, 3100);
  assert.ok(isSorted(slice));
  const build = [probeAt(probe, 1300), probeAt(probe, 3000), probeAt(probe, 4000)];
  const got = selected(keySet(ints(build)), slice);
  assert.deepEqual(got, selected(keySet(ints(build)), unmarked(slice)));
  assert.ok(got.length >= 2);
});

test('KeySet over a sorted column: every run found, whatever the gap to the next key', () => {
  // Keys 1 to 120 values apart (below the row loop's share), so a run begins at every offset within a block.
  const values = runs(4000);
  for (let step = 1; step <= 120; step += 7) {
    const build = [...new Set(values)].filter((_, i) => i % step === step >> 1);
    for (const column of [sortedInts, sortedFloats]) {
      const probe = column(values);
      assert.deepEqual(selected(keySet(ints(build)), probe), selected(keySet(ints(build)), unmarked(probe)));
    }
  }
});

test('KeySet over a sorted column with a range on another column: the keys rows inside it', () => {
  // The range drops rows on the sorted path only; whatever path is taken, no row outside the keys is kept and
  // the sorted path keeps exactly the key rows whose other value lies in [lo, hi].
  const values = runs(4000);
  const build = [...new Set(values)].filter((_, i) => i % 9 === 4);
  for (const column of [sortedInts, sortedFloats]) {
    const probe = column(values);
    const all = selected(keySet(ints(build)), unmarked(probe));
    const others = values.map((_, i) => (i * 37) % 101);
    // Numbers, and a coded text column's one-byte codes (a text equality's code is a one-value range).
    for (const x of [Int32Array.from(others), Float64Array.from(others), Uint8Array.from(others)]) {
      for (const [lo, hi] of [
        [10, 60],
        [50, 50],
        [Number.NEGATIVE_INFINITY, 20],
        [90, Number.POSITIVE_INFINITY],
        [200, 300],
        [1, 0],
      ] as const) {
        const got = [...(keySet(ints(build)).select(probe, { x, lo, hi }) ?? [])];
        assert.deepEqual(
          got,
          all.filter((i) => x[i]! >= lo && x[i]! <= hi),
          `${column.name} ${x.constructor.name} [${lo}, ${hi}]`,
        );
      }
    }
  }
});

test('KeySet: keys that come ascending (kept as a list) and in any other order (a bitmap) select the same rows', () => {
  // Ascending keys skip the bitmap until a batch is tested row by row; shuffled ones build it at once.
  const values = runs(3000);
  const distinct = [...new Set(values)];
  const ascending = distinct.filter((_, i) => i % 11 === 3);
  const shuffled = [...ascending].reverse();
  for (const column of [sortedInts, sortedFloats]) {
    const probe = column(values);
    for (const batch of [probe, unmarked(probe), sliceColumn(probe, 100, 2900)]) {
      const want = selected(keySet(ints(shuffled)), batch);
      assert.ok(want.length > 0);
      assert.deepEqual(selected(keySet(ints(ascending)), batch), want);
      // Split over two build batches, and as int64 keys.
      const half = ascending.length >> 1;
      assert.deepEqual(selected(keySet(ints(ascending.slice(0, half)), ints(ascending.slice(half))), batch), want);
      assert.deepEqual(selected(keySet(floats(ascending)), batch), want);
    }
    // The same set tested row by row after sorted batches (the bitmap built late) and before.
    const keys = keySet(ints(ascending));
    const first = selected(keys, probe);
    assert.deepEqual(selected(keys, unmarked(probe)), first);
    assert.deepEqual(selected(keys, probe), first);
  }
});

test('KeySet over a sorted column: a NULL row makes it unsorted', () => {
  const v = Int32Array.from([1, 2, 3]);
  markSorted(v);
  assert.equal(isSorted(makeColumn(INT32, v, Uint8Array.from([1, 0, 1]), 3)), false);
  assert.deepEqual(selected(keySet(ints([1, 2])), makeColumn(INT32, v, Uint8Array.from([1, 0, 1]), 3)), [0]);
});

// Int32 probe batches of 256 rows or more are tested in WebAssembly (`selectBitsInt32`), each bitmap copied into
// the module once while it stays resident (four at most): five filters taking turns, with an int32 range selection
// in between (which shares the module's memory), must each still answer as a plain membership test.
test('KeySet over int32 batches in WebAssembly: five filters taking turns, NULL rows, a range select between', () => {
  const rows = 1001;
  const probe = (seed: number) =>
    Array.from({ length: rows }, (_, i) => (i % 17 === 3 ? null : ((i * 7919 + seed) % 5003) - 1000));
  const builds = [1, 2, 3, 4, 5].map((f) => Array.from({ length: 40 * f }, (_, i) => i * (7 + f) - 900 + f));
  const sets = builds.map((b) => keySet(ints(b)));
  const plain = (build: number[], values: (number | null)[]) =>
    values.flatMap((v, i) => (v !== null && build.includes(v) ? [i] : []));
  for (let round = 0; round < 3; round++) {
    const values = probe(round);
    // Revisits while resident, and after five distinct bitmaps pushed the first ones out.
    for (const f of [0, 1, 0, 2, 3, 1, 4, 0, 4]) {
      const keys = sets[f]!;
      assert.deepEqual(selected(keys, ints(values)), plain(builds[f]!, values), `filter ${f}, round ${round}`);
      const range = new Int32Array(rows);
      const k = selectBetween('>=', -10 * f, '<', 10, ints(values), null, rows, range);
      const inRange = values.flatMap((v, i) => (v !== null && v >= -10 * f && v < 10 ? [i] : []));
      assert.deepEqual([...range.subarray(0, k)], inRange, `range ${f}, round ${round}`);
    }
  }
});
