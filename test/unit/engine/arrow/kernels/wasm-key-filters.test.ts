// The WebAssembly loops of dynamic join filters against plain loops. `selectRunsInt32` (the runs of a sorted int32
// batch equal to sorted keys, a range tested on another column): runs of 1-9 rows, gaps of 1 to 1000 rows between
// keys (the module skips 64 rows at a time, then halves a 64-row window), keys at the first and last rows, keys
// absent from the batch, int32 and uint8 range columns, and the cases it declines (-1). `selectBitsInt32` (rows whose
// value's bit is set), with and without an int32 range and NULL rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectBitsInt32, selectRunsInt32 } from '../../../../../engine/arrow/kernels/wasm-select.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const rng = makeRng(23);

/** Ascending values: runs of 1-9 equal values, each 1-3 above the last; from `start`. */
function sortedRuns(rows: number, start: number): Int32Array {
  const v = new Int32Array(rows);
  let value = start;
  for (let i = 0; i < rows; ) {
    const run = 1 + Math.floor(rng() * 9);
    for (let r = 0; r < run && i < rows; r++) v[i++] = value;
    value += 1 + Math.floor(rng() * 3);
  }
  return v;
}

/** The plain loop: rows whose value is a key and whose `x` lies in [lo, hi]. */
function expected(v: Int32Array, keys: Float64Array, x: ArrayLike<number> | null, lo: number, hi: number): number[] {
  const set = new Set(keys);
  const out: number[] = [];
  for (let i = 0; i < v.length; i++) {
    if (set.has(v[i]!) && (x === null || (x[i]! >= lo && x[i]! <= hi))) out.push(i);
  }
  return out;
}

/** Keys of `v` (each distinct value kept with probability `share`), plus absent values between them. */
function keysOf(v: Int32Array, share: number, absent: boolean): Float64Array {
  const distinct = [...new Set(v)];
  const keys = distinct.filter(() => rng() < share);
  if (absent)
    for (let i = 1; i < distinct.length; i++) if (distinct[i]! - distinct[i - 1]! > 1) keys.push(distinct[i]! - 1);
  keys.push(distinct[0]!, distinct.at(-1)!);
  return Float64Array.from(new Set(keys)).sort();
}

function run(
  v: Int32Array,
  keys: Float64Array,
  x: Int32Array | Int16Array | Uint8Array | null,
  lo: number,
  hi: number,
): number[] {
  const out = new Int32Array(v.length);
  const k = selectRunsInt32(v, v.length, keys, 0, keys.length, out, x, lo, hi);
  assert.ok(k >= 0, 'the module took the batch');
  return [...out.subarray(0, k)];
}

test('selectRunsInt32: every key run, whatever the gap between keys', () => {
  // Shares from every key to one in ~200 distinct values (gaps of ~1000 rows); values from negative to positive
  // (the comparisons are signed) and up to near 2^31.
  for (const share of [1, 0.5, 0.1, 0.03, 0.01, 0.005]) {
    for (const start of [-700, 0, 2 ** 31 - 50_000]) {
      const v = sortedRuns(3000 + Math.floor(rng() * 2000), start);
      const keys = keysOf(v, share, share < 0.1);
      assert.deepEqual(run(v, keys, null, 0, 0), expected(v, keys, null, 0, 0), `share ${share} start ${start}`);
    }
  }
});

test('selectRunsInt32: a range on an int32, an int16 (a narrow copy) or a uint8 column', () => {
  const v = sortedRuns(5000, 100);
  const keys = keysOf(v, 0.05, true);
  const ints = Int32Array.from(v, (_, i) => ((i * 7919) % 2001) - 1000);
  const shorts = Int16Array.from(v, (_, i) => (i % 97 === 0 ? -32768 : i % 89 === 0 ? 32767 : 9000 + (i % 41)));
  const bytes = Uint8Array.from(v, (_, i) => (i * 37) % 256);
  for (const [x, ranges] of [
    [
      shorts,
      [
        [9010, 9020],
        [-32768, -32768],
        [32767, 40000],
        [-40000, 40000],
        [Number.NEGATIVE_INFINITY, 9000.5],
        [9030, 9005],
      ],
    ],
    [
      ints,
      [
        [-100, 100],
        [0, 0],
        [Number.NEGATIVE_INFINITY, -900],
        [900.5, Number.POSITIVE_INFINITY],
        [-(2 ** 31), 2 ** 31 - 1],
        [3000, 4000],
        [5, 4],
      ],
    ],
    [
      bytes,
      [
        [10, 60],
        [255, 255],
        [0, 255],
        [Number.NEGATIVE_INFINITY, 0],
        [300, 400],
      ],
    ],
  ] as const) {
    for (const [lo, hi] of ranges) {
      assert.deepEqual(run(v, keys, x, lo, hi), expected(v, keys, x, lo, hi), `${x.constructor.name} [${lo}, ${hi}]`);
    }
  }
});

test('selectRunsInt32: a sub-range of keys, and the batches it declines', () => {
  const v = sortedRuns(2000, 0);
  const keys = keysOf(v, 0.2, false);
  const out = new Int32Array(v.length);
  const k = selectRunsInt32(v, v.length, keys, 3, 9, out, null, 0, 0);
  assert.deepEqual([...out.subarray(0, k)], expected(v, keys.subarray(3, 9), null, 0, 0));
  // Fewer than 256 rows, or a key that is not an integer: the caller's loop runs.
  assert.equal(selectRunsInt32(v.subarray(0, 255), 255, keys, 0, 1, out, null, 0, 0), -1);
  const halves = Float64Array.from([keys[0]!, keys[1]! + 0.5]);
  assert.equal(selectRunsInt32(v, v.length, halves, 0, 2, out, null, 0, 0), -1);
});

test('selectBitsInt32: keys in a bitmap, with a range on an int32 or an int16 column', () => {
  const rows = 3000;
  const lo = -40;
  const span = 900;
  const v = Int32Array.from({ length: rows }, () => lo - 20 + Math.floor(rng() * (span + 40)));
  const bits = new Int32Array((span + 31) >>> 5);
  const keys = new Set<number>();
  for (let d = 0; d < span; d++) {
    if (rng() < 0.3) {
      bits[d >>> 5]! |= 1 << (d & 31);
      keys.add(lo + d);
    }
  }
  const valid = Uint8Array.from({ length: rows }, () => (rng() < 0.9 ? 1 : 0));
  const ints = Int32Array.from({ length: rows }, () => Math.floor(rng() * 2000) - 1000);
  const shorts = Int16Array.from(ints, (x, i) => (i % 101 === 0 ? -32768 : i % 103 === 0 ? 32767 : x + 9000));
  const cases: [Int32Array | Int16Array | null, number, number][] = [
    [null, 0, 0],
    [shorts, 8900, 9250],
    [shorts, Number.NEGATIVE_INFINITY, -32768],
    [shorts, 32767, 32767],
    [shorts, -(2 ** 31), 2 ** 31 - 1],
    [shorts, 40_000, 50_000],
    [ints, -100, 250],
    [ints, Number.NEGATIVE_INFINITY, -500.5],
    [ints, -(2 ** 31), 2 ** 31 - 1],
    [ints, 3000, 4000],
  ];
  for (const [x, xlo, xhi] of cases) {
    for (const nulls of [null, valid]) {
      const out = new Int32Array(rows);
      const k = selectBitsInt32(v, rows, lo, span, bits, out, nulls, x, xlo, xhi);
      const want: number[] = [];
      for (let i = 0; i < rows; i++) {
        const inRange = x === null || (x[i]! >= xlo && x[i]! <= xhi);
        if (keys.has(v[i]!) && inRange && (nulls === null || nulls[i] === 1)) want.push(i);
      }
      assert.deepEqual([...out.subarray(0, k)], want, `${x?.constructor.name} [${xlo}, ${xhi}] nulls ${!!nulls}`);
    }
  }
});
