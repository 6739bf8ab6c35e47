// Decimals of different scales compare exactly: scaled in doubles while exact, decided in doubles when the two
// sides are far apart, and in BigInt when they are close (Q11's HAVING: a scale-2 sum against a scale-12 threshold).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { compare } from '../../../../../engine/arrow/kernels/numeric.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const MAX = 2n ** 53n - 1n;
/** A decimal column as the engine holds it: Float64Array while every value is within 2^53, else BigInt64Array. */
const dec = (scale: number, values: bigint[]): Column => {
  const type = { id: 'decimal', precision: 38, scale } as const;
  const exact = values.every((v) => v <= MAX && v >= -MAX);
  const stored = exact ? Float64Array.from(values, Number) : BigInt64Array.from(values);
  return makeColumn(type, stored, null, values.length);
};

test('compare: scale 2 against scale 12 across 2^53 once scaled, near and far, every operator', () => {
  const rng = makeRng(11);
  const a: bigint[] = [];
  const b: bigint[] = [];
  const up = 10n ** 10n;
  for (let i = 0; i < 3000; i++) {
    // Scaled by 10^10, a lands around 2^53 (9.007e15): just below, just above, or far above (Q11's sums).
    const x = BigInt(Math.floor(i % 3 === 2 ? rng() * 9e12 : 900_000 + rng() * 1_500)) * (rng() < 0.2 ? -1n : 1n);
    a.push(x);
    const scaled = x * up;
    const pick = i % 5;
    // b: equal to the scaled a, one unit off, far off, or a small threshold; kept within 2^53 (Float64Array).
    let y =
      pick === 0 ? scaled : pick === 1 ? scaled + 1n : pick === 2 ? scaled - 1n : pick === 3 ? scaled / 3n : 12_345n;
    if (y > MAX) y = MAX - BigInt(i % 7);
    if (y < -MAX) y = -MAX + BigInt(i % 7);
    b.push(y);
  }
  for (const right of [
    dec(12, b),
    makeColumn({ id: 'decimal', precision: 38, scale: 12 }, BigInt64Array.from(b), null, b.length),
  ]) {
    for (const op of ['=', '<>', '<', '<=', '>', '>='] as const) {
      const got = compare(op, dec(2, a), right).values as Uint8Array;
      for (let i = 0; i < a.length; i++) {
        const p = a[i]! * up;
        const q = b[i]!;
        const want =
          op === '='
            ? p === q
            : op === '<>'
              ? p !== q
              : op === '<'
                ? p < q
                : op === '<='
                  ? p <= q
                  : op === '>'
                    ? p > q
                    : p >= q;
        assert.equal(got[i], want ? 1 : 0, `${a[i]} (scale 2) ${op} ${q} (scale 12)`);
      }
    }
  }
});

test('compare: a scale-12 side held as BigInt past 2^53, equal, one unit off or far from the scaled side', () => {
  const rng = makeRng(12);
  const up = 10n ** 10n;
  const a: bigint[] = [];
  const b: bigint[] = [];
  for (let i = 0; i < 3000; i++) {
    // a · 10^10 between 10^16 and 9·10^18: past 2^53, within int64.
    const x = BigInt(1_000_000 + Math.floor(rng() * 899_000_000)) * (i % 4 === 3 ? -1n : 1n);
    a.push(x);
    const scaled = x * up;
    const pick = i % 4;
    b.push(pick === 0 ? scaled : pick === 1 ? scaled + 1n : pick === 2 ? scaled - 1n : scaled / 2n + 7n);
  }
  const right = makeColumn({ id: 'decimal', precision: 38, scale: 12 }, BigInt64Array.from(b), null, b.length);
  for (const op of ['=', '<', '>='] as const) {
    const got = compare(op, dec(2, a), right).values as Uint8Array;
    for (let i = 0; i < a.length; i++) {
      const p = a[i]! * up;
      const q = b[i]!;
      const want = op === '=' ? p === q : op === '<' ? p < q : p >= q;
      assert.equal(got[i], want ? 1 : 0, `${a[i]} (scale 2) ${op} ${q} (scale 12)`);
    }
  }
});
