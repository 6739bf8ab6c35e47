import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Int64Sums } from '../../../../../engine/exec/operators/int64-sums.js';

/** A seeded 64-bit value generator (xorshift), covering the whole int64 range. */
function values(n: number, seed: number): BigInt64Array {
  const out = new BigInt64Array(n);
  let s = BigInt(seed) | 1n;
  for (let i = 0; i < n; i++) {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    out[i] = BigInt.asIntN(64, s);
  }
  return out;
}

test('Int64Sums: exact per-group totals over the whole int64 range, across folds, NULLs and selections', () => {
  const sums = new Int64Sums();
  const got = new Map<number, bigint>();
  const fold = (g: number, total: bigint) => got.set(g, (got.get(g) ?? 0n) + total);
  const want = [0n, 0n, 0n];
  const counts = new Float64Array(3);
  const wantCounts = [0, 0, 0];
  // 3 batches of 500k rows: more than the 2^20 rows between folds, so the fold runs mid-way and at the end.
  for (let b = 0; b < 3; b++) {
    const n = 500_000;
    const v = values(n, 7 + b);
    const valid = new Uint8Array(n).map((_, i) => (i % 11 === 0 ? 0 : 1));
    // Batch 1 reads every other row through a selection.
    const sel = b === 1 ? Int32Array.from({ length: n / 2 }, (_, i) => 2 * i) : null;
    const rows = sel === null ? n : sel.length;
    const groups = Int32Array.from({ length: rows }, (_, i) => (i * 7) % 3);
    sums.add(v, valid, groups, rows, sel, counts, 3, fold);
    for (let i = 0; i < rows; i++) {
      const r = sel === null ? i : sel[i]!;
      if (valid[r] === 0) continue;
      want[groups[i]!]! += v[r]!;
      wantCounts[groups[i]!]!++;
    }
  }
  sums.fold(fold);
  assert.deepEqual([got.get(0), got.get(1), got.get(2)], want);
  assert.deepEqual([...counts], wantCounts);
  // A fold with nothing pending hands nothing over.
  got.clear();
  sums.fold(fold);
  assert.equal(got.size, 0);
});

test('Int64Sums: a subarray view reads its own rows (the buffer offset is honoured)', () => {
  const all = BigInt64Array.of(5n, -(2n ** 62n), 2n ** 62n + 3n, -1n);
  const sums = new Int64Sums();
  const got: bigint[] = [];
  const counts = new Float64Array(1);
  sums.add(all.subarray(1, 3), null, new Int32Array(2), 2, null, counts, 1, (_g, t) => got.push(t));
  sums.fold((_g, t) => got.push(t));
  assert.deepEqual(got, [3n]);
  assert.equal(counts[0], 2);
});
