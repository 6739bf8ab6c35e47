// `selectCompare`, `selectBetween` and `selectCompareColumns` against a plain loop: every operator, Float64Array and Int32Array values
// (and Float64Array values with a narrow Int8 or Int16 copy, read from a slice), with and without NULLs, over all rows
// or a selection (also narrowed in place), branchy and branchless loops, and the WebAssembly loops (a selection of
// at least 256 rows and a sixteenth of the batch).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeColumn, subarrayMarked } from '../../../../../engine/arrow/column.js';
import type { CmpOp } from '../../../../../engine/arrow/kernels/numeric.js';
import {
  selectBetween,
  selectCompare,
  selectCompareColumns,
  selectInTable,
} from '../../../../../engine/arrow/kernels/select-compare.js';
import { attachNarrow, narrowOf, narrowValues } from '../../../../../engine/arrow/narrow-values.js';
import { FLOAT64, INT32 } from '../../../../../engine/plan/types.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const OPS: Record<CmpOp, (a: number, b: number) => boolean> = {
  '=': (a, b) => a === b,
  '<>': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/** `f` for each range with each pair of bound operators. */
function eachBetween(
  ranges: readonly [number, number][],
  f: (lowOp: '>' | '>=', low: number, highOp: '<' | '<=', high: number) => void,
): void {
  for (const [low, high] of ranges)
    for (const lowOp of ['>', '>='] as const) for (const highOp of ['<', '<='] as const) f(lowOp, low, highOp, high);
}

const n = 1000;
const rng = makeRng(11);
const raw = Array.from({ length: n }, () => Math.floor(rng() * 20) - 10);
const valid = Uint8Array.from(raw, () => (rng() < 0.1 ? 0 : 1));
const sel = Int32Array.from(raw.map((_, i) => i).filter(() => rng() < 0.6));

/**
 * `raw` times `scale` as rows [7, 7 + n) of a longer Float64Array with a narrow copy (Int8 at scale 1, Int16 at
 * 100): the slice's copy must line up with its rows.
 */
function narrowed(scale: number): Float64Array {
  const whole = Float64Array.from([99, -99, 98, 97, 96, 95, 94, ...raw].map((v) => v * scale));
  attachNarrow(whole, narrowValues(whole, null, whole.length)!);
  const slice = subarrayMarked(whole, 7, 7 + n);
  assert.ok(narrowOf(slice) instanceof (scale === 1 ? Int8Array : Int16Array));
  return slice;
}

for (const [kind, values] of [
  ['float64', Float64Array.from(raw, (v) => v + 0.5)],
  ['int32', Int32Array.from(raw)],
  ['float64, Int8 copy', narrowed(1)],
  ['float64, Int16 copy', narrowed(100)],
] as const) {
  for (const withNulls of [false, true]) {
    const col = makeColumn(kind === 'int32' ? INT32 : FLOAT64, values, withNulls ? valid : null, n);
    test(`selectCompare: ${kind}${withNulls ? ' with NULLs' : ''}`, () => {
      for (const op of Object.keys(OPS) as CmpOp[]) {
        for (const c of [-11, -3, 0, 0.5, 4, 10]) {
          const passes = (i: number) => (!withNulls || valid[i] === 1) && OPS[op](values[i]!, c);
          const all = raw.map((_, i) => i).filter(passes);
          const some = [...sel].filter(passes);
          for (const branchless of [false, true]) {
            const out = new Int32Array(n);
            const k = selectCompare(op, col, c, null, n, out, branchless);
            assert.deepEqual([...out.subarray(0, k)], all, `${op} ${c} all rows, branchless ${branchless}`);
            const inPlace = sel.slice();
            const m = selectCompare(op, col, c, inPlace, inPlace.length, inPlace, branchless);
            assert.deepEqual([...inPlace.subarray(0, m)], some, `${op} ${c} selection, branchless ${branchless}`);
          }
        }
      }
    });
  }
}

// `selectBetween`: a range (either end inclusive) in one pass, against the two comparisons applied in turn.
for (const [kind, values] of [
  ['float64', Float64Array.from(raw, (v) => v + 0.5)],
  ['int32', Int32Array.from(raw)],
  ['float64, Int8 copy', narrowed(1)],
  ['float64, Int16 copy', narrowed(100)],
] as const) {
  for (const withNulls of [false, true]) {
    const col = makeColumn(kind === 'int32' ? INT32 : FLOAT64, values, withNulls ? valid : null, n);
    test(`selectBetween: ${kind}${withNulls ? ' with NULLs' : ''}`, () => {
      for (const lowOp of ['>', '>='] as const) {
        for (const highOp of ['<', '<='] as const) {
          for (const [low, high] of [
            [-4, 4],
            [-3.5, 0.5],
            [0, 0],
            [5, -5],
            [-100, 100],
          ] as const) {
            const passes = (i: number) =>
              (!withNulls || valid[i] === 1) && OPS[lowOp](values[i]!, low) && OPS[highOp](values[i]!, high);
            const all = raw.map((_, i) => i).filter(passes);
            const some = [...sel].filter(passes);
            const what = `${lowOp} ${low} and ${highOp} ${high}`;
            for (const branchless of [false, true]) {
              const out = new Int32Array(n);
              const k = selectBetween(lowOp, low, highOp, high, col, null, n, out, branchless);
              assert.deepEqual([...out.subarray(0, k)], all, `${what}, all rows, branchless ${branchless}`);
              const inPlace = sel.slice();
              const m = selectBetween(lowOp, low, highOp, high, col, inPlace, inPlace.length, inPlace, branchless);
              assert.deepEqual([...inPlace.subarray(0, m)], some, `${what}, selection, branchless ${branchless}`);
            }
          }
        }
      }
    });
  }
}

test('selectBetween: -1 for a column not held as numbers', () => {
  const text = makeColumn({ id: 'utf8' }, ['a'], null, 1);
  assert.equal(selectBetween('>', 0, '<', 1, text, null, 1, new Int32Array(1)), -1);
});

// `selectCompareColumns`: `a op b` row by row, NULL on either side dropping the row.
const other = Array.from({ length: n }, () => Math.floor(rng() * 20) - 10);
const otherValid = Uint8Array.from(other, () => (rng() < 0.1 ? 0 : 1));
for (const kind of ['float64', 'int32'] as const) {
  for (const nulls of ['none', 'left', 'both'] as const) {
    const make = (v: number[], ok: Uint8Array | null) =>
      makeColumn(
        kind === 'int32' ? INT32 : FLOAT64,
        kind === 'int32' ? Int32Array.from(v) : Float64Array.from(v),
        ok,
        n,
      );
    const a = make(raw, nulls === 'none' ? null : valid);
    const b = make(other, nulls === 'both' ? otherValid : null);
    test(`selectCompareColumns: ${kind}, NULLs ${nulls}`, () => {
      for (const op of Object.keys(OPS) as CmpOp[]) {
        const passes = (i: number) =>
          (a.valid === null || a.valid[i] === 1) &&
          (b.valid === null || b.valid[i] === 1) &&
          OPS[op](raw[i]!, other[i]!);
        for (const branchless of [false, true]) {
          const out = new Int32Array(n);
          const k = selectCompareColumns(op, a, b, null, n, out, branchless);
          assert.deepEqual([...out.subarray(0, k)], raw.map((_, i) => i).filter(passes), `${op} all rows`);
          const inPlace = sel.slice();
          const m = selectCompareColumns(op, a, b, inPlace, inPlace.length, inPlace, branchless);
          assert.deepEqual([...inPlace.subarray(0, m)], [...sel].filter(passes), `${op} selection`);
        }
      }
    });
  }
}

test('selectCompareColumns: -1 unless both columns hold the same kind of number array', () => {
  const ints = makeColumn(INT32, Int32Array.of(1), null, 1);
  const doubles = makeColumn(FLOAT64, Float64Array.of(1), null, 1);
  assert.equal(selectCompareColumns('<', ints, doubles, null, 1, new Int32Array(1)), -1);
  const big = makeColumn({ id: 'int64' }, BigInt64Array.of(1n), null, 1);
  assert.equal(selectCompareColumns('<', big, big, null, 1, new Int32Array(1)), -1);
});

// `selectInTable`: `x [NOT] IN (integers)` as one table lookup per row, against a plain membership test.
for (const [kind, values] of [
  ['float64', Float64Array.from(raw, (v, i) => (i % 5 === 0 ? v + 0.5 : v))],
  ['int32', Int32Array.from(raw)],
  ['float64, Int8 copy', narrowed(1)],
] as const) {
  for (const withNulls of [false, true]) {
    const col = makeColumn(kind === 'int32' ? INT32 : FLOAT64, values, withNulls ? valid : null, n);
    test(`selectInTable: ${kind}${withNulls ? ' with NULLs' : ''}`, () => {
      for (const list of [[-10], [-3, 0, 4, 9], [9, 2, -1]]) {
        const lo = Math.min(...list);
        const table = new Uint8Array(Math.max(...list) - lo + 1);
        for (const x of list) table[x - lo] = 1;
        for (const negated of [false, true]) {
          const passes = (i: number) => (!withNulls || valid[i] === 1) && list.includes(values[i]!) !== negated;
          for (const branchless of [false, true]) {
            const out = new Int32Array(n);
            const k = selectInTable(col, lo, table, negated, null, n, out, branchless);
            const what = `${negated ? 'NOT ' : ''}IN ${list}, branchless ${branchless}`;
            assert.deepEqual([...out.subarray(0, k)], raw.map((_, i) => i).filter(passes), what);
            const inPlace = sel.slice();
            const m = selectInTable(col, lo, table, negated, inPlace, inPlace.length, inPlace, branchless);
            assert.deepEqual([...inPlace.subarray(0, m)], [...sel].filter(passes), `${what} (selection)`);
          }
        }
      }
    });
  }
}

test('selectInTable: values outside the table, fractions and NaN never match; -1 for text', () => {
  const col = makeColumn(FLOAT64, Float64Array.from([2, 2.5, 3, Number.NaN, -1, 2 ** 32 + 2, 4]), null, 7);
  const out = new Int32Array(7);
  // Table over [2, 4]: 2 and 4 listed.
  const k = selectInTable(col, 2, Uint8Array.from([1, 0, 1]), false, null, 7, out);
  assert.deepEqual([...out.subarray(0, k)], [0, 6]);
  const text = makeColumn({ id: 'utf8' }, ['a'], null, 1);
  assert.equal(selectInTable(text, 0, new Uint8Array(1), false, null, 1, out), -1);
});

// Int32 columns without a selection run four rows at a time (WebAssembly SIMD, `wasm-select.ts`) from 256 rows on:
// values at the type's limits, fractional and out-of-range constants, a row count that leaves a tail of 3.
test('selectCompare / selectBetween over int32 rows four at a time: limits, fractions, tail rows', () => {
  const MIN = -(2 ** 31);
  const MAX = 2 ** 31 - 1;
  const count = 1003;
  const values = Int32Array.from({ length: count }, (_, i) =>
    i % 97 === 0 ? MIN : i % 89 === 0 ? MAX : Math.floor(rng() * 41) - 20,
  );
  const nulls = Uint8Array.from(values, (_, i) => (i % 13 === 5 ? 0 : 1));
  for (const withNulls of [false, true]) {
    const col = makeColumn(INT32, values, withNulls ? nulls : null, count);
    const kept = (test: (v: number) => boolean) =>
      [...values.keys()].filter((i) => (!withNulls || nulls[i] === 1) && test(values[i]!));
    // Over a selection of most rows too (selectRangeAt: the selected rows, one at a time).
    const picked = Int32Array.from([...values.keys()].filter((i) => i % 3 !== 1));
    const keptOf = (test: (v: number) => boolean) => kept(test).filter((i) => i % 3 !== 1);
    for (const op of Object.keys(OPS) as CmpOp[]) {
      for (const c of [MIN, MIN - 1, MAX, MAX + 1, -2.5, 0, 7.25, 20, 2 ** 40, Number.NaN]) {
        const out = new Int32Array(count);
        const k = selectCompare(op, col, c, null, count, out);
        assert.deepEqual(
          [...out.subarray(0, k)],
          kept((v) => OPS[op](v, c)),
          `${op} ${c} nulls ${withNulls}`,
        );
        const inPlace = picked.slice();
        const m = selectCompare(op, col, c, inPlace, inPlace.length, inPlace);
        assert.deepEqual(
          [...inPlace.subarray(0, m)],
          keptOf((v) => OPS[op](v, c)),
          `${op} ${c} selected`,
        );
      }
    }
    const ranges: [number, number][] = [
      [-3, 3],
      [-3.5, 2.5],
      [MIN, MAX],
      [MIN - 5, MAX + 5],
      [5, -5],
      [0, 0],
    ];
    eachBetween(ranges, (lowOp, low, highOp, high) => {
      const out = new Int32Array(count);
      const k = selectBetween(lowOp, low, highOp, high, col, null, count, out);
      const expected = kept((v) => OPS[lowOp](v, low) && OPS[highOp](v, high));
      assert.deepEqual([...out.subarray(0, k)], expected, `${lowOp} ${low} ${highOp} ${high}`);
      const m = selectBetween(lowOp, low, highOp, high, col, picked, picked.length, out);
      assert.deepEqual(
        [...out.subarray(0, m)],
        expected.filter((i) => i % 3 !== 1),
        `${lowOp} ${low} ${highOp} ${high} selected`,
      );
    });
  }
});

// A column with an Int16 narrow copy (an int32 date column's days, or Float64 integers) runs eight rows at a time
// over the copy without a selection (`selectRangeWhole`): limits of int16 and beyond, fractions, a tail of 5.
test('selectCompare / selectBetween over an Int16 narrow copy eight rows at a time read the copy', () => {
  const count = 1021;
  const wide = Array.from({ length: count }, (_, i) =>
    i % 101 === 0 ? -32768 : i % 103 === 0 ? 32767 : 9000 + Math.floor(rng() * 41) - 20,
  );
  const nulls = Uint8Array.from(wide, (_, i) => (i % 11 === 4 ? 0 : 1));
  for (const type of [INT32, FLOAT64]) {
    for (const withNulls of [false, true]) {
      const values = type === INT32 ? Int32Array.from(wide) : Float64Array.from(wide);
      const copy = narrowValues(values, withNulls ? nulls : null, count)!;
      assert.ok(copy instanceof Int16Array);
      attachNarrow(values, copy);
      // Changed behind the copy's back: row 1 shows which array the loop reads (the copy: 9000-ish).
      const row1 = wide[1]!;
      values[1] = -1;
      const col = makeColumn(type, values, withNulls ? nulls : null, count);
      const kept = (test: (v: number) => boolean) =>
        [...wide.keys()].filter((i) => (!withNulls || nulls[i] === 1) && test(i === 1 ? row1 : wide[i]!));
      const ranges: [number, number][] = [
        [8990, 9005],
        [8990.5, 9004.5],
        [-32768, 32767],
        [-40000, -32768],
        [32767, 40000],
        [-40000, 40000],
        [9000, 8990],
      ];
      eachBetween(ranges, (lowOp, low, highOp, high) => {
        const out = new Int32Array(count);
        const k = selectBetween(lowOp, low, highOp, high, col, null, count, out);
        const expected = kept((v) => OPS[lowOp](v, low) && OPS[highOp](v, high));
        assert.deepEqual([...out.subarray(0, k)], expected, `${type.id} ${lowOp} ${low} ${highOp} ${high}`);
      });
      for (const op of Object.keys(OPS) as CmpOp[]) {
        const out = new Int32Array(count);
        const k = selectCompare(op, col, 9000, null, count, out);
        assert.deepEqual(
          [...out.subarray(0, k)],
          kept((v) => OPS[op](v, 9000)),
          `${type.id} ${op}`,
        );
      }
    }
  }
});
