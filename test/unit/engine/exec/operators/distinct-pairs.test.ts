// COUNT / SUM (DISTINCT x) per group: the (group, number) pair table against Sets, through growth, NaN, -0, NULLs,
// and a DISTINCT accumulator whose input switches from numbers to int64 past 2^53 (its pairs move to `Int64Pairs`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeColumn } from '../../../../../engine/arrow/column.js';
import { makeAccumulator } from '../../../../../engine/exec/operators/accumulators.js';
import { DistinctPairs } from '../../../../../engine/exec/operators/distinct-pairs.js';
import type { AggregateCall } from '../../../../../engine/plan/logical/index.js';
import { FLOAT64, INT32, INT64 } from '../../../../../engine/plan/types.js';
import { makeRng } from '../../../../helpers/gen-data.js';

/** Distinct values per group as sorted text (SameValueZero, like a Set). */
function expected(groups: number[], values: number[], valid: number[]): string[][] {
  const sets: Set<number>[] = [];
  groups.forEach((g, i) => {
    if (valid[i] === 0) return;
    sets[g] ??= new Set();
    sets[g].add(values[i]!);
  });
  return Array.from({ length: sets.length }, (_, g) => [...(sets[g] ?? [])].map(String).sort());
}

/**
 * Six batches of 1,500 (group, value) pairs into a DistinctPairs (every other batch with NULLs), checked against
 * Sets: `value(batch, rnd)` makes each value; `compactRows` sets how often collected integers are deduplicated.
 */
function checkPairs(int32: boolean, value: (batch: number, rnd: () => number) => number, compactRows?: number) {
  const rnd = makeRng(int32 ? 3 : 4);
  const pairs = new DistinctPairs(int32, compactRows);
  const groups: number[] = [];
  const values: number[] = [];
  const valid: number[] = [];
  for (let batch = 0; batch < 6; batch++) {
    const n = 1500;
    const g = Int32Array.from({ length: n }, () => Math.floor(rnd() * 200));
    const raw = Array.from({ length: n }, () => value(batch, rnd));
    const v = int32 ? Int32Array.from(raw) : Float64Array.from(raw);
    const ok = Uint8Array.from({ length: n }, () => (rnd() < 0.05 ? 0 : 1));
    pairs.add(g, n, v, batch % 2 === 0 ? ok : null);
    for (let i = 0; i < n; i++) {
      groups.push(g[i]!);
      values.push(v[i]!);
      valid.push(batch % 2 === 0 ? ok[i]! : 1);
    }
  }
  const got = pairs.pairs();
  assert.equal(got.values instanceof Int32Array, int32);
  const byGroup: string[][] = [];
  got.groups.forEach((g, i) => {
    byGroup[g] ??= [];
    byGroup[g].push(String(got.values[i]));
  });
  const want = expected(groups, values, valid);
  assert.deepEqual(
    Array.from({ length: want.length }, (_, g) => (byGroup[g] ?? []).sort()),
    want,
  );
  const keys = Array.from(got.groups, (g, i) => `${g}:${String(got.values[i])}`);
  assert.equal(keys.length, new Set(keys).size, 'no pair twice');
}

const small = (_: number, rnd: () => number) => Math.floor(rnd() * 40) - 20;
const sometimes = (special: number[]) => (batch: number, rnd: () => number) =>
  rnd() < 0.1 ? special[Math.floor(rnd() * special.length)]! : small(batch, rnd);

test('DistinctPairs keeps each (group, value) once: integers collected, deduplicated in bulk', () => {
  // Deduplicated after every batch or so, and only at the end; int32 and float64 integers with -0.
  for (const compactRows of [1000, undefined]) {
    checkPairs(true, small, compactRows);
    checkPairs(false, sometimes([-0, 0, 19]), compactRows);
  }
});

test('DistinctPairs moves collected pairs to its hash table: a fraction, NaN, a value past int32, a wide range', () => {
  checkPairs(false, sometimes([Number.NaN, -0, 0, 0.5, 2 ** 52 + 1, -1e300]));
  // Integers for three batches, then a fraction, once or after deduplicating.
  for (const compactRows of [1000, undefined]) {
    checkPairs(false, (batch, rnd) => (batch === 3 && rnd() < 0.01 ? 2.5 : small(batch, rnd)), compactRows);
  }
  // Int32 values spread over 2^32: too wide for stamps.
  checkPairs(true, sometimes([0, -1, 2 ** 31 - 1, -(2 ** 31)]));
  checkPairs(true, sometimes([0, -1, 2 ** 31 - 1, -(2 ** 31)]), 1000);
  // Nearly all distinct: every collected pair must reach the table.
  checkPairs(true, (_, rnd) => Math.floor(rnd() * 2 ** 32) - 2 ** 31);
});

const countDistinct = (type: typeof INT64): AggregateCall => ({
  fn: 'count',
  args: [{ kind: 'column', qualifier: null, name: 'x', type }],
  distinct: true,
  filter: null,
  type: INT64,
  name: 'count(DISTINCT x)',
});

test('count(DISTINCT) moves its pairs to the int64 pairs when an int64 past 2^53 arrives', () => {
  const acc = makeAccumulator(countDistinct(INT64));
  const big = 2n ** 60n;
  acc.update(Int32Array.from([0, 0, 1, 1]), 4, makeColumn(INT64, Float64Array.from([5, 5, 7, 8]), null, 4), 2);
  acc.update(Int32Array.from([0, 1, 2]), 3, makeColumn(INT64, BigInt64Array.from([big, 7n, big]), null, 3), 3);
  acc.update(Int32Array.from([0, 2]), 2, makeColumn(INT64, Float64Array.from([5, 9]), null, 2), 3);
  const out = acc.finish(3);
  assert.deepEqual([...(out.values as Float64Array)], [2, 2, 2]);
});

test('count(DISTINCT) over int32 and float64 values, NULLs left out', () => {
  const ints = makeAccumulator(countDistinct(INT32));
  ints.update(
    Int32Array.from([0, 0, 0, 1]),
    4,
    makeColumn(INT32, Int32Array.from([3, 3, 4, 3]), Uint8Array.from([1, 1, 1, 0]), 4),
    2,
  );
  assert.deepEqual([...(ints.finish(2).values as Float64Array)], [2, 0]);
  const floats = makeAccumulator(countDistinct(FLOAT64));
  floats.update(
    Int32Array.from([0, 0, 0, 0]),
    4,
    makeColumn(FLOAT64, Float64Array.from([Number.NaN, Number.NaN, -0, 0]), null, 4),
    1,
  );
  assert.deepEqual([...(floats.finish(1).values as Float64Array)], [2]);
});
