// `narrowValues`: which number columns get a narrow copy (small integers in their valid rows) and what it holds;
// `attachNarrow` / `narrowOf` / slices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MARKED_SLICE_ROWS, makeColumn, subarrayMarked } from '../../../../engine/arrow/column.js';
import { concatLazily, gatherColumns } from '../../../../engine/arrow/gathered-column.js';
import { take } from '../../../../engine/arrow/kernels/take.js';
import { attachNarrow, narrowOf, narrowValues } from '../../../../engine/arrow/narrow-values.js';

const narrow = (xs: number[], valid: number[] | null = null) =>
  narrowValues(Float64Array.from(xs), valid === null ? null : Uint8Array.from(valid), xs.length);

test('narrowValues: one byte for -128..127, two for -32768..32767, none beyond', () => {
  assert.deepEqual(narrow([-128, 0, 127]), Int8Array.of(-128, 0, 127));
  assert.deepEqual(narrow([-129, 5]), Int16Array.of(-129, 5));
  assert.deepEqual(narrow([1, 128]), Int16Array.of(1, 128));
  assert.deepEqual(narrow([-32768, 32767]), Int16Array.of(-32768, 32767));
  assert.equal(narrow([0, 32768]), null);
  assert.equal(narrow([-32769]), null);
});

test('narrowValues: a fraction, NaN, an infinity or -0 in a valid row means no copy', () => {
  assert.equal(narrow([1, 2.5]), null);
  // The copy stands in for the values in takes: a -0 would come back as 0.
  assert.equal(narrow([3, -0]), null);
  assert.deepEqual(narrow([3, -0], [1, 0]), Int8Array.of(3, 0));
  assert.equal(narrow([Number.NaN]), null);
  assert.equal(narrow([Number.POSITIVE_INFINITY]), null);
});

test('narrowValues: NULL rows do not count and hold 0', () => {
  assert.deepEqual(narrow([1e12, 3, 0.5, -4], [0, 1, 0, 1]), Int8Array.of(0, 3, 0, -4));
});

test('narrowValues: the copy lives in the memory `alloc` gives', () => {
  const copy = narrowValues(Float64Array.of(1, 2), null, 2, (n) => new Uint8Array(new SharedArrayBuffer(n), 0, n));
  assert.ok(copy?.buffer instanceof SharedArrayBuffer);
});

test('attachNarrow: a copy of another length is not attached; slices get their rows of the copy', () => {
  const values = Float64Array.from({ length: 600 }, (_, i) => i % 100);
  attachNarrow(values, Int8Array.of(10, 20));
  assert.equal(narrowOf(values), null);
  attachNarrow(values, narrowValues(values, null, 600)!);
  assert.deepEqual(
    narrowOf(subarrayMarked(values, 1, 301)),
    Int8Array.from({ length: 300 }, (_, i) => (i + 1) % 100),
  );
  // Fewer than MARKED_SLICE_ROWS rows: no copy (a point lookup's slices).
  assert.equal(narrowOf(subarrayMarked(values, 1, MARKED_SLICE_ROWS)), null);
  assert.equal(narrowOf(Int32Array.of(1)), null);
  assert.equal(narrowOf(new Uint8Array(1)), null);
});

test('take reads the narrow copy of a column: the same values, NULLs kept, one- and two-byte copies', () => {
  for (const xs of [
    [5, -7, 0, 127, -128, 3, 9],
    [300, -32768, 0, 32767, 1, -2, 4],
  ]) {
    const values = Float64Array.from(xs);
    const valid = Uint8Array.of(1, 1, 0, 1, 1, 1, 1);
    const copy = narrowValues(values, valid, values.length)!;
    assert.equal(copy instanceof Int8Array, xs[0] === 5);
    attachNarrow(values, copy);
    // Changed behind the copy's back, row 0 shows which array the take reads: the copy.
    values[0] = 1e9;
    const rows = Int32Array.of(6, 0, 2, 4, 4, 1);
    const out = take(makeColumn({ id: 'float64' }, values, valid, values.length), rows);
    assert.ok(out.values instanceof Float64Array);
    const got = [...(out.values as Float64Array)];
    assert.deepEqual([got[0], got[1], got[3], got[4], got[5]], [xs[6], xs[0], xs[4], xs[4], xs[1]]);
    assert.deepEqual([...out.valid!], [1, 1, 0, 1, 1, 1]);
    // Taken from a slice: the slice's rows of the copy.
    const long = Float64Array.from({ length: 600 }, (_, i) => xs[i % xs.length]!);
    attachNarrow(long, narrowValues(long, null, long.length)!);
    long[3 + 256] = 1e9;
    const slice = makeColumn({ id: 'float64' }, subarrayMarked(long, 3, 303), null, 300);
    const fromSlice = [...(take(slice, Int32Array.of(256, 0)).values as Float64Array)];
    assert.deepEqual(fromSlice, [xs[259 % xs.length], xs[3]]);
  }
});

test('a lazily concatenated build side gathers its rows from the narrow copy of their source', () => {
  for (const xs of [
    [5, -7, 0, 127, -128, 3],
    [300, -32768, 0, 32767, 1, -2],
  ]) {
    const values = Float64Array.from(xs);
    attachNarrow(values, narrowValues(values, null, values.length)!);
    // Changed behind the copy's back: row 0 shows which array the gather reads.
    values[0] = 1e9;
    const source = makeColumn({ id: 'float64' }, values, null, values.length);
    // Two join output batches (rows gathered from one source), concatenated as the next join's build side.
    const parts = [Int32Array.of(0, 2), Int32Array.of(5, 0, 3)].map(
      (rows) => gatherColumns([source], rows, rows.length, false)[0]!,
    );
    const whole = concatLazily(parts);
    assert.deepEqual([...(whole.values as Float64Array)], [xs[0], xs[2], xs[5], xs[0], xs[3]]);
  }
});

test('an int32 column of days gets a two-byte copy, kept by slices; its takes read the int32 values', () => {
  const days = Int32Array.from({ length: 400 }, (_, i) => [8035, 10591, 9000, -5][i % 4]!);
  const copy = narrowValues(days, null, 400)!;
  assert.deepEqual(copy, Int16Array.from(days));
  assert.deepEqual(narrowValues(Int32Array.of(1, 7, -3), null, 3), Int8Array.of(1, 7, -3));
  assert.equal(narrowValues(Int32Array.of(1, 40_000), null, 2), null);
  attachNarrow(days, copy);
  assert.equal(narrowOf(days), copy);
  assert.deepEqual(narrowOf(subarrayMarked(days, 1, 301)), Int16Array.from(days.subarray(1, 301)));
  // The copy serves filters only: a take gives Int32 values, read from the column itself.
  days[2] = 12_345;
  const out = take(makeColumn({ id: 'date' }, days, null, 4), Int32Array.of(2, 0));
  assert.ok(out.values instanceof Int32Array);
  assert.deepEqual([...(out.values as Int32Array)], [12_345, 8035]);
});
