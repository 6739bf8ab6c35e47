// `DirectIds`: the range grows to hold new keys, by doublings, or at once to an expected range (a build of known
// size), and refuses a range beyond its limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markSorted } from '../../../../../engine/arrow/column.js';
import { DirectIds } from '../../../../../engine/exec/hash/direct-ids.js';

test('sorted batches double the range; an expected range is allocated once, an eighth over', () => {
  const doubling = new DirectIds();
  const sizes: number[] = [];
  for (let b = 0; b < 8; b++) {
    assert.equal(doubling.widen(b * 1000, b * 1000 + 999, 1 << 20), true);
    sizes.push(doubling.ids.length);
  }
  assert.deepEqual(sizes, [1000, 2000, 4000, 4000, 8000, 8000, 8000, 8000]);

  const expected = new DirectIds();
  assert.equal(expected.widen(0, 999, 1 << 20), true);
  assert.equal(expected.widen(1000, 1999, 1 << 20, 8000), true);
  assert.equal(expected.ids.length, 9000);
  const before = expected.ids;
  for (let b = 2; b < 9; b++) assert.equal(expected.widen(b * 1000, b * 1000 + 999, 1 << 20, 8000), true);
  assert.equal(expected.ids, before, 'no copy while the keys stay in the expected range');
  assert.equal(expected.usedSpan, 9000);
  // Past the estimate: doubling again, from the keys' range, not the array's.
  assert.equal(expected.widen(9000, 9500, 1 << 20, 8000), true);
  assert.equal(expected.ids.length, 18_000);
  assert.equal(expected.usedSpan, 9501);
});

test('ids survive a widening, below and above the old range; a range beyond the limit is refused', () => {
  const d = new DirectIds();
  d.widen(100, 199, 1000, 300);
  for (let k = 100; k < 200; k++) d.ids[k - d.lo] = k;
  assert.equal(d.widen(50, 120, 1000), true);
  assert.equal(d.lo, 50);
  for (let k = 100; k < 200; k++) assert.equal(d.ids[k - d.lo], k);
  assert.equal(d.ids[60 - d.lo], -1);
  assert.equal(d.widen(0, 5000, 1000), false);
  assert.equal(d.lo, 50);
  assert.equal(d.ids[150 - d.lo], 150);

  // Far below a range with room to spare: the ids move, the spare room does not.
  const far = new DirectIds();
  far.widen(100_000, 100_009, 1 << 20, 40);
  far.ids[100_005 - far.lo] = 7;
  assert.equal(far.widen(0, 5, 1 << 20), true);
  assert.equal(far.lo, 0);
  assert.equal(far.ids[100_005], 7);
  assert.equal(far.ids[100_009], -1);
});

test('cover reads only the ends of rows marked sorted, and every row otherwise', () => {
  // Marked sorted, rows [1, 4) span 10..40: the middle rows are not read (a value out of order there shows it).
  const sorted = Float64Array.of(0, 10, 99_999, 40, 50);
  markSorted(sorted);
  const d = new DirectIds();
  assert.equal(d.cover(sorted, null, 1, 4, 1000), true);
  assert.deepEqual([d.lo, d.usedSpan], [10, 31]);
  // Not marked: every row, and a fraction refuses the range.
  const plain = new DirectIds();
  assert.equal(plain.cover(Float64Array.of(0, 10, 999, 40), null, 1, 4, 1000), true);
  assert.deepEqual([plain.lo, plain.usedSpan], [10, 990]);
  assert.equal(new DirectIds().cover(Float64Array.of(1, 2.5, 3), null, 0, 3, 1000), false);
  // With NULLs, the valid rows are read even when marked.
  const nulls = new DirectIds();
  assert.equal(nulls.cover(sorted, Uint8Array.of(1, 0, 1, 1, 1), 1, 4, 200_000), true);
  assert.deepEqual([nulls.lo, nulls.usedSpan], [40, 99_960]);
});
