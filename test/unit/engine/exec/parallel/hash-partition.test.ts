// The hash a hash-split aggregate partitions rows by: values GROUP BY holds equal hash equal whatever their form
// (an int64 as a number or in a BigInt64Array, 0 and -0, NaNs, text as bytes, codes or JS strings), and the
// partitions of a batch are disjoint and cover every row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Batch, makeBatch } from '../../../../../engine/arrow/batch.js';
import { type Column, makeColumn, type Utf8Bytes } from '../../../../../engine/arrow/column.js';
import { attachCodes } from '../../../../../engine/arrow/text-dictionary.js';
import { HashPartitionExec, hashColumn } from '../../../../../engine/exec/parallel/hash-partition-exec.js';
import { FLOAT64, INT64, UTF8 } from '../../../../../engine/plan/types.js';

const encoder = new TextEncoder();
function utf8(values: readonly string[]): Utf8Bytes {
  const parts = values.map((s) => encoder.encode(s));
  const offsets = new Int32Array(values.length + 1);
  for (const [i, b] of parts.entries()) offsets[i + 1] = offsets[i]! + b.length;
  const bytes = new Uint8Array(offsets[values.length]!);
  for (const [i, b] of parts.entries()) bytes.set(b, offsets[i]!);
  return { offsets, bytes };
}

function hashes(col: Column): number[] {
  const out = new Int32Array(col.length);
  hashColumn(col, col.length, out);
  return [...out];
}

test('equal GROUP BY values hash equal in every form', () => {
  const ints = [0, -1, 1, 2 ** 32, -(2 ** 32) - 5, 2 ** 53 - 1, -(2 ** 53 - 1)];
  const asNumbers = hashes(makeColumn(INT64, Float64Array.from(ints), null, ints.length));
  const asBigInts = hashes(makeColumn(INT64, BigInt64Array.from(ints, BigInt), null, ints.length));
  assert.deepEqual(asNumbers, asBigInts);
  assert.equal(new Set(asNumbers).size, ints.length, 'distinct values spread');
  const floats = hashes(makeColumn(FLOAT64, Float64Array.from([0, -0, Number.NaN, -Number.NaN]), null, 4));
  assert.equal(floats[0], floats[1]);
  assert.equal(floats[2], floats[3]);
  const words = ['', 'a', 'ｚ', '🚀', 'a longer value'];
  const bytes = utf8(words);
  const plain = hashes(makeColumn(UTF8, utf8(words), null, words.length));
  attachCodes(bytes, { values: utf8(words), size: words.length }, Uint8Array.from(words.keys()));
  assert.deepEqual(hashes(makeColumn(UTF8, bytes, null, words.length)), plain);
  assert.deepEqual(hashes(makeColumn(UTF8, words, null, words.length)), plain);
});

test('the partitions of a batch are disjoint and hold every row, NULLs in one of them', async () => {
  const n = 1000;
  const keys = makeColumn(
    INT64,
    Float64Array.from({ length: n }, (_, i) => (i * 7919) % 300),
    Uint8Array.from({ length: n }, (_, i) => (i % 13 === 0 ? 0 : 1)),
    n,
  );
  const schema = { fields: [{ name: 'k', qualifier: null, type: INT64, nullable: true }] };
  const input = {
    schema,
    async *execute(): AsyncIterable<Batch> {
      yield makeBatch(schema, [keys], n);
    },
  };
  const seen = new Map<number, number>();
  const ctx = { signal: new AbortController().signal } as Parameters<HashPartitionExec['execute']>[0];
  const nullParts = new Set<number>();
  let total = 0;
  for (let index = 0; index < 3; index++) {
    for await (const b of new HashPartitionExec(input, [0], index, 3).execute(ctx)) {
      const c = b.columns[0]!;
      total += b.length;
      for (let i = 0; i < b.length; i++) {
        if (c.valid !== null && c.valid[i] === 0) {
          nullParts.add(index);
          continue;
        }
        const v = (c.values as Float64Array)[i]!;
        assert.ok(!seen.has(v) || seen.get(v) === index, `value ${v} in two partitions`);
        seen.set(v, index);
      }
    }
  }
  assert.equal(total, n);
  assert.equal(seen.size, 300);
  assert.equal(nullParts.size, 1);
  assert.equal(new Set(seen.values()).size, 3, 'every partition gets rows');
});
