// `narrowValues`: which number columns get a narrow copy (small integers in their valid rows) and what it holds;
// `attachNarrow` / `narrowOf` / slices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subarrayMarked } from '../../../../engine/arrow/column.js';
import { attachNarrow, narrowOf, narrowValues } from '../../../../engine/arrow/narrow-values.js';

const narrow = (xs: number[], valid: number[] | null = null) =>
  narrowValues(Float64Array.from(xs), valid === null ? null : Uint8Array.from(valid), xs.length);

test('narrowValues: one byte for -128..127, two for -32768..32767, none beyond', () => {
  assert.deepEqual(narrow([-128, 0, 127, -0]), Int8Array.of(-128, 0, 127, 0));
  assert.deepEqual(narrow([-129, 5]), Int16Array.of(-129, 5));
  assert.deepEqual(narrow([1, 128]), Int16Array.of(1, 128));
  assert.deepEqual(narrow([-32768, 32767]), Int16Array.of(-32768, 32767));
  assert.equal(narrow([0, 32768]), null);
  assert.equal(narrow([-32769]), null);
});

test('narrowValues: a fraction, NaN or an infinity in a valid row means no copy', () => {
  assert.equal(narrow([1, 2.5]), null);
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
  const values = Float64Array.of(10, 20, 30, 40);
  attachNarrow(values, Int8Array.of(10, 20));
  assert.equal(narrowOf(values), null);
  attachNarrow(values, narrowValues(values, null, 4)!);
  assert.deepEqual(narrowOf(subarrayMarked(values, 1, 3)), Int8Array.of(20, 30));
  assert.equal(narrowOf(Int32Array.of(1)), null);
});
