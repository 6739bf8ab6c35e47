// SUM over `x op y` of a filter's survivors (`arithmeticAtColumn`): added from the sources by index without the
// column being computed, exactly; a product or a running sum leaving ±2^53 continues from the column's values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ArithmeticAt, arithmeticAtColumn } from '../../../../../engine/arrow/arithmetic-at.js';
import type { ColumnValues } from '../../../../../engine/arrow/column.js';
import { exactArithAt } from '../../../../../engine/arrow/kernels/numeric.js';
import { BatchRows } from '../../../../../engine/exec/operators/batch-rows.js';
import { SumAcc } from '../../../../../engine/exec/operators/sum-accumulator.js';
import type { DataType } from '../../../../../engine/plan/types.js';

const I64: DataType = { id: 'int64' };
const D4: DataType = { id: 'decimal', precision: 38, scale: 4 };

/** SUM over one batch of `at` as one group; `computed` counts how often the column's values were computed. */
function sumOf(at: ArithmeticAt, type: DataType): { total: number | bigint | null; computed: number } {
  let computed = 0;
  const compute = (): ColumnValues => {
    computed++;
    const out = exactArithAt(at.op, at.x, at.y, at.indices, at.length);
    if (out !== null) return out;
    const big = new BigInt64Array(at.length);
    for (let j = 0; j < at.length; j++) {
      const i = at.indices[j]!;
      const [a, b] = [BigInt(at.x[i]!), BigInt(at.y[i]!)];
      big[j] = at.op === '*' ? a * b : at.op === '+' ? a + b : a - b;
    }
    return big;
  };
  const acc = new SumAcc(false, type, type);
  const groups = new Int32Array(at.length);
  acc.update(groups, at.length, arithmeticAtColumn(type, at, compute), 1, [], new BatchRows(groups, at.length, 1));
  const out = acc.finish(1);
  const v = out.values as Float64Array | BigInt64Array;
  return { total: out.valid?.[0] === 0 ? null : v[0]!, computed };
}

function expected(at: ArithmeticAt): bigint {
  let s = 0n;
  for (let j = 0; j < at.length; j++) {
    const [a, b] = [BigInt(at.x[at.indices[j]!]!), BigInt(at.y[at.indices[j]!]!)];
    s += at.op === '*' ? a * b : at.op === '+' ? a + b : a - b;
  }
  return s;
}

const N = 4_000;
/** Every k-th row or so, ascending (a filter's survivors). */
function every(k: number): { indices: Int32Array; length: number } {
  const indices = Int32Array.from({ length: Math.floor(N / k) }, (_, j) => j * k + (j % k));
  return { indices, length: indices.length };
}

test('sum of x op y at the survivors: exact, and the column is never computed', () => {
  const x = Float64Array.from({ length: N }, (_, i) => (i * 7_919) % 10_000_000);
  const y = Int8Array.from({ length: N }, (_, i) => (i % 11) - 3);
  const { indices, length } = every(9);
  for (const op of ['*', '+', '-'] as const) {
    // One row fewer than the indices hold: only `length` rows are added.
    const at = { op, x, y, indices, length: length - 1 };
    const { total, computed } = sumOf(at, D4);
    assert.equal(BigInt(total!), expected(at), op);
    assert.equal(computed, 0, op);
  }
});

test('a running sum passing 2^53 continues exactly from the column', () => {
  // Products of ~2^44 are exact; a few hundred of them pass 2^53 part way through.
  const x = Float64Array.from({ length: N }, (_, i) => 2 ** 44 + i);
  const y = Int16Array.from({ length: N }, (_, i) => 90 + (i % 10));
  const at = { op: '*' as const, x, y, ...every(8) };
  const { total, computed } = sumOf(at, I64);
  assert.ok(Number(expected(at)) > 2 ** 53);
  assert.equal(BigInt(total!), expected(at));
  assert.equal(computed, 1);
});

test('a product past 2^53 continues exactly from the column (computed in BigInt)', () => {
  const x = Float64Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 2 ** 47 + i : i));
  const y = Int32Array.from({ length: N }, () => 100);
  const at = { op: '*' as const, x, y, ...every(5) };
  const { total, computed } = sumOf(at, I64);
  assert.equal(BigInt(total!), expected(at));
  assert.equal(computed, 1);
});
