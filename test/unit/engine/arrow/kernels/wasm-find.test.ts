// `findAll`: every position of a byte string, by the WebAssembly SIMD search, against a plain search: needles of 1
// to 40 bytes, matches at the range's ends, across window boundaries, more matches than one call returns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findAll } from '../../../../../engine/arrow/kernels/wasm-find.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const rng = makeRng(77);
/** Bytes over a 3-letter alphabet, so short needles repeat and long ones share long prefixes with the text. */
const hay = Uint8Array.from({ length: 20_000 }, () => 97 + Math.floor(rng() * 3));

function plain(bytes: Uint8Array, start: number, end: number, needle: Uint8Array): number[] {
  const out: number[] = [];
  for (let p = start; p + needle.length <= end; p++) {
    let j = 0;
    while (j < needle.length && bytes[p + j] === needle[j]) j++;
    if (j === needle.length) out.push(p);
  }
  return out;
}

function found(start: number, end: number, needle: Uint8Array, window?: number, max?: number): number[] {
  const out: number[] = [];
  assert.ok(findAll(hay, start, end, needle, (p) => out.push(p), window, max));
  return out;
}

for (const length of [1, 2, 3, 5, 16, 17, 40]) {
  test(`findAll: a ${length}-byte needle`, () => {
    // A needle taken from the text (it occurs), and the text's last bytes (a match ending at `end`).
    for (const at of [0, 4321, hay.length - length]) {
      const needle = hay.slice(at, at + length);
      assert.deepEqual(found(0, hay.length, needle), plain(hay, 0, hay.length, needle), `from ${at}`);
      // A range not starting at 0, ending mid-text; small windows (overlaps) and few positions per call.
      assert.deepEqual(found(7, 15_001, needle, 4099), plain(hay, 7, 15_001, needle), `windows, from ${at}`);
      assert.deepEqual(found(3, 9_000, needle, 5000, 7), plain(hay, 3, 9_000, needle), `resumes, from ${at}`);
    }
  });
}

test('findAll: no match, and short ranges left to the caller', () => {
  assert.deepEqual(found(0, hay.length, Uint8Array.from([120, 121])), []);
  assert.equal(
    findAll(hay, 0, 100, Uint8Array.from([97]), () => {}),
    false,
  );
});
