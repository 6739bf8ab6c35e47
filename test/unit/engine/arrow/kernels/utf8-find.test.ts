// `forRowsContaining`: rows whose bytes hold a byte string, found over the whole column at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forRowsContaining, rarest } from '../../../../../engine/arrow/kernels/utf8-find.js';

const encoder = new TextEncoder();

/** Rows as UTF-8 bytes with offsets; `skip` rows in front (offsets not starting at 0) and `after` bytes behind. */
const utf8 = (rows: string[], skip = '', after = '') => {
  const parts = [skip, ...rows].map((r) => encoder.encode(r));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => {
    offsets[i + 1] = offsets[i]! + p.length;
  });
  const bytes = new Uint8Array(offsets[parts.length]! + after.length);
  for (const [i, p] of parts.entries()) bytes.set(p, offsets[i]!);
  bytes.set(encoder.encode(after), offsets[parts.length]!);
  return { offsets: offsets.subarray(1), bytes, n: rows.length };
};

const rowsWith = (rows: string[], needle: string, skip = '', after = '') => {
  const { offsets, bytes, n } = utf8(rows, skip, after);
  const found: number[] = [];
  forRowsContaining(offsets, bytes, n, encoder.encode(needle), (i) => found.push(i));
  return found;
};

for (const [name, rows, needle, expected] of [
  ['one hit per row, in row order', ['xab', 'ab ab', 'b', 'aab'], 'ab', [0, 1, 3]],
  ['an occurrence across a row boundary is no hit', ['xa', 'bx', 'ab'], 'ab', [2]],
  ['empty rows and a hit at the very start and end', ['', 'ab', '', 'zzab', ''], 'ab', [1, 3]],
  ['no hit at all', ['special', 'requests'], 'specialrequests', []],
  ['non-ASCII bytes', ['日本語', 'ab日本', '本語'], '日本', [0, 1]],
] as const) {
  test(`forRowsContaining: ${name}`, () => {
    assert.deepEqual(rowsWith([...rows], needle), expected);
  });
}

test('forRowsContaining: rows of a sliced column, bytes before and after them ignored', () => {
  assert.deepEqual(rowsWith(['a', 'xab', 'b'], 'ab', 'ab ab', 'ab'), [1]);
  assert.deepEqual(rowsWith(['a', 'x', 'a'], 'ab', 'ab', 'b'), []);
});

test('rarest: the byte string occurring least often in the sample; ties go to the longest', () => {
  const bytes = encoder.encode('requests special requests quick requests special x');
  const [special, requests, quick, x] = ['special', 'requests', 'quick', 'x'].map((w) => encoder.encode(w));
  assert.equal(rarest([requests!, special!], bytes), special);
  assert.equal(rarest([special!, requests!], bytes), special);
  // quick and x occur once each: the longer one.
  assert.equal(rarest([x!, quick!, requests!], bytes), quick);
  // A string absent from the sample wins.
  assert.deepEqual([...rarest([special!, encoder.encode('zzz')], bytes)], [...encoder.encode('zzz')]);
});
