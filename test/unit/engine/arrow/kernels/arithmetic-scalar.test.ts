// `x op literal` without a constant column: the same columns as `arithmetic` over one, or null to fall back to it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, constantColumn, makeColumn } from '../../../../../engine/arrow/column.js';
import { type ArithOp, arithmetic, arithmeticScalar } from '../../../../../engine/arrow/kernels/numeric.js';
import type { DataType } from '../../../../../engine/plan/types.js';

const N = 1_000;
const valid = Uint8Array.from({ length: N }, (_, i) => (i % 9 === 0 ? 0 : 1));

function column(type: DataType, values: Float64Array | Int32Array, withNulls: boolean): Column {
  return makeColumn(type, values, withNulls ? valid : null, N);
}

const cases: { type: DataType; values: Float64Array | Int32Array; literal: number }[] = [
  { type: { id: 'int32' }, values: Int32Array.from({ length: N }, (_, i) => i * 37 - 9_000), literal: 12 },
  { type: { id: 'int64' }, values: Float64Array.from({ length: N }, (_, i) => i * 1e9 - 3e11), literal: -5 },
  {
    type: { id: 'decimal', precision: 15, scale: 2 },
    values: Float64Array.from({ length: N }, (_, i) => i % 11),
    literal: 100,
  },
];

test('matches arithmetic over a constant column for + - * in both orders, NULL rows kept', () => {
  for (const { type, values, literal } of cases)
    for (const op of ['+', '-', '*'] as ArithOp[])
      for (const literalFirst of [false, true])
        for (const withNulls of [false, true]) {
          const x = column(type, values, withNulls);
          const c = constantColumn(type, literal, N);
          const want = literalFirst ? arithmetic(op, c, x, type) : arithmetic(op, x, c, type);
          const got = arithmeticScalar(op, x, literal, literalFirst, type);
          const label = `${type.id} ${literalFirst ? `${literal} ${op} x` : `x ${op} ${literal}`} nulls=${withNulls}`;
          assert.ok(got !== null, label);
          assert.deepEqual(got.valid, want.valid, label);
          assert.equal(got.values!.constructor, want.values!.constructor, label);
          const g = got.values as Float64Array | Int32Array;
          const w = want.values as Float64Array | Int32Array;
          for (let i = 0; i < N; i++)
            if (want.valid === null || want.valid[i] === 1) assert.equal(g[i], w[i], `${label} row ${i}`);
        }
});

test('falls back (null) past the exact range, for division, floats and BigInt columns; int32 overflow raises', () => {
  const int64: DataType = { id: 'int64' };
  const big = column(
    int64,
    Float64Array.from({ length: N }, (_, i) => (i === 500 ? 2 ** 52 : i)),
    false,
  );
  assert.equal(arithmeticScalar('*', big, 4, false, int64), null);
  assert.notEqual(arithmeticScalar('*', big, 1, false, int64), null);
  assert.equal(arithmeticScalar('/', big, 4, false, int64), null);
  assert.equal(arithmeticScalar('+', big, 0.5, false, int64), null);
  const f: DataType = { id: 'float64' };
  assert.equal(arithmeticScalar('+', column(f, new Float64Array(N), false), 1, false, f), null);
  const bigints = makeColumn(int64, new BigInt64Array(N), null, N);
  assert.equal(arithmeticScalar('+', bigints, 1, false, int64), null);
  const i32: DataType = { id: 'int32' };
  const near = column(
    i32,
    Int32Array.from({ length: N }, () => 2_147_483_000),
    false,
  );
  assert.throws(() => arithmeticScalar('+', near, 1_000, false, i32), /integer out of range/);
});
