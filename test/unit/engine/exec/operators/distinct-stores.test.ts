// COUNT / SUM / MIN (DISTINCT x) per group through the partitioned int64 pairs and the text pairs: checked against
// Sets of exact values, through deduplication rounds, both int64 forms (numbers and BigInt64Array), NULLs, coded and
// JS-string text, and the moves between stores a DISTINCT accumulator makes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn, type Utf8Bytes } from '../../../../../engine/arrow/column.js';
import { attachCodes } from '../../../../../engine/arrow/text-dictionary.js';
import { makeAccumulator } from '../../../../../engine/exec/operators/accumulators.js';
import { Int64Pairs } from '../../../../../engine/exec/operators/int64-pairs.js';
import { TextPairs } from '../../../../../engine/exec/operators/text-pairs.js';
import type { AggregateCall } from '../../../../../engine/plan/logical/index.js';
import { type DataType, INT64, UTF8 } from '../../../../../engine/plan/types.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const encoder = new TextEncoder();
const MAX = 2n ** 53n - 1n;

function utf8(values: readonly string[]): Utf8Bytes {
  const parts = values.map((s) => encoder.encode(s));
  const offsets = new Int32Array(values.length + 1);
  parts.forEach((b, i) => {
    offsets[i + 1] = offsets[i]! + b.length;
  });
  const bytes = new Uint8Array(offsets[values.length]!);
  parts.forEach((b, i) => {
    bytes.set(b, offsets[i]!);
  });
  return { offsets, bytes };
}

/** Sorted `group:value` texts of the distinct pairs a reference Set keeps. */
function reference(pairs: [number, string][]): string[] {
  return [...new Set(pairs.map(([g, v]) => `${g}:${v}`))].sort();
}

test('Int64Pairs keeps each (group, int64) once: numbers and halves meet, across deduplication rounds', () => {
  for (const compactRows of [700, 1 << 20]) {
    const rnd = makeRng(38);
    const pairs = new Int64Pairs(compactRows);
    const seen: [number, string][] = [];
    // Values near ±2^53 and ±2^63, small ones, and the same values as numbers where exact.
    const pool = [0n, -1n, 1n, 2n ** 32n, -(2n ** 32n), 2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n + 1n];
    pool.push(2n ** 63n - 1n, -(2n ** 63n), 123456789012345678n, -987654321098765n);
    for (let batch = 0; batch < 8; batch++) {
      const n = 400;
      const groups = Int32Array.from({ length: n }, () => Math.floor(rnd() * 30));
      // Odd batches as numbers (the exact values only), even ones as a BigInt64Array of any.
      const from = batch % 2 === 1 ? pool.filter((v) => v <= MAX && v >= -MAX) : pool;
      const big = BigInt64Array.from({ length: n }, () => from[Math.floor(rnd() * from.length)]!);
      const valid = batch % 3 === 0 ? Uint8Array.from({ length: n }, () => (rnd() < 0.1 ? 0 : 1)) : null;
      pairs.add(groups, n, batch % 2 === 1 ? Float64Array.from(big, Number) : big, valid);
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        seen.push([groups[i]!, String(big[i]!)]);
      }
    }
    const got = pairs.pairs();
    const texts = Array.from(got.groups, (g, i) => `${g}:${got.values[i]!}`).sort();
    assert.deepEqual(texts, reference(seen));
    const counts = pairs.counts(30);
    const want = new Float64Array(30);
    for (const t of reference(seen)) want[Number(t.split(':')[0])]!++;
    assert.deepEqual(counts, want);
  }
});

test('TextPairs keeps each (group, text) once: bytes, JS strings and dictionary codes meet', () => {
  const words = ['', 'a', 'A', 'ab', 'ｚ', '🚀', 'a longer value than the rest', 'ab '];
  const rnd = makeRng(7);
  const pairs = new TextPairs();
  const seen: [number, string][] = [];
  const dictionary = { values: utf8(words), size: words.length };
  for (let batch = 0; batch < 9; batch++) {
    const n = 300;
    const groups = Int32Array.from({ length: n }, () => Math.floor(rnd() * 5));
    const codes = Uint8Array.from({ length: n }, () => Math.floor(rnd() * words.length));
    const strings = Array.from(codes, (c) => words[c]!);
    const valid = batch % 2 === 0 ? Uint8Array.from({ length: n }, () => (rnd() < 0.2 ? 0 : 1)) : null;
    let col: Column;
    if (batch % 3 === 0) col = makeColumn(UTF8, strings, valid, n);
    else {
      const bytes = utf8(strings);
      if (batch % 3 === 1) attachCodes(bytes, dictionary, codes);
      col = makeColumn(UTF8, bytes, valid, n);
    }
    pairs.add(groups, n, col);
    for (let i = 0; i < n; i++) if (valid === null || valid[i] === 1) seen.push([groups[i]!, strings[i]!]);
  }
  const got = pairs.pairs();
  const decoder = new TextDecoder();
  const { offsets, bytes } = got.values;
  const texts = Array.from(
    got.groups,
    (g, i) => `${g}:${decoder.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!))}`,
  ).sort();
  assert.deepEqual(texts, reference(seen));
  assert.equal(
    pairs.counts(5).reduce((a, b) => a + b, 0),
    texts.length,
  );
});

const call = (fn: 'count' | 'sum' | 'min', type: DataType): AggregateCall => ({
  fn,
  args: [{ kind: 'column', qualifier: null, name: 'x', type }],
  distinct: true,
  filter: null,
  type: fn === 'count' ? INT64 : type.id === 'int64' ? { id: 'decimal', precision: 38, scale: 0 } : type,
  name: `${fn}(DISTINCT x)`,
});

test('SUM and COUNT (DISTINCT int64): numbers over a wide range, then values past 2^53, summed exactly', () => {
  const sum = makeAccumulator(call('sum', INT64));
  const count = makeAccumulator(call('count', INT64));
  // A wide range of exact integers (the pairs leave their bulk path), then BigInt64Array batches.
  const wide = Float64Array.from([1e15, 1e15, -3, 2 ** 40, 5, 5, 1e15]);
  const g1 = Int32Array.from([0, 0, 1, 1, 0, 0, 2]);
  const big = BigInt64Array.from([2n ** 62n, 2n ** 62n, 1000000000000000n, -3n]);
  const g2 = Int32Array.from([0, 0, 0, 1]);
  for (const acc of [sum, count]) {
    acc.update(g1, g1.length, makeColumn(INT64, wide, null, wide.length), 3);
    acc.update(g2, g2.length, makeColumn(INT64, big, null, big.length), 3);
  }
  assert.deepEqual([...(count.finish(3).values as Float64Array)], [3, 2, 1]);
  const sums = sum.finish(3);
  const read = (i: number) => BigInt((sums.values as Float64Array | BigInt64Array)[i]!);
  assert.deepEqual([0, 1, 2].map(read), [2n ** 62n + 10n ** 15n + 5n, 2n ** 40n - 3n, 10n ** 15n]);
});

test('MIN (DISTINCT text) and COUNT (DISTINCT text) per group, NULLs left out', () => {
  const min = makeAccumulator(call('min', UTF8));
  const count = makeAccumulator(call('count', UTF8));
  const values = utf8(['b', 'a', 'b', '', 'z', 'a']);
  const valid = Uint8Array.from([1, 1, 1, 1, 0, 1]);
  const groups = Int32Array.from([0, 0, 0, 1, 2, 1]);
  for (const acc of [min, count]) acc.update(groups, 6, makeColumn(UTF8, values, valid, 6), 3);
  assert.deepEqual([...(count.finish(3).values as Float64Array)], [2, 2, 0]);
  const out = min.finish(3);
  assert.deepEqual(out.valid === null ? [1, 1, 1] : [...out.valid], [1, 1, 0]);
});
