// `x op y` over two columns picked by one index array (a filter's survivors): computed from the sources by index,
// narrow copies included, with the same values as over copied rows; NULLs, padding, different indices and results
// past ±2^53 take the copying kernels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeBatch } from '../../../../../engine/arrow/batch.js';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { gatherColumns } from '../../../../../engine/arrow/gathered-column.js';
import { take } from '../../../../../engine/arrow/kernels/take.js';
import { attachNarrow, narrowValues } from '../../../../../engine/arrow/narrow-values.js';
import { compileExpr } from '../../../../../engine/exec/expr/physical-expr.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import type { DataType, Schema } from '../../../../../engine/plan/types.js';

const D2: DataType = { id: 'decimal', precision: 15, scale: 2 };
const D4: DataType = { id: 'decimal', precision: 30, scale: 4 };
const I64: DataType = { id: 'int64' };

const col = (name: string, type: DataType): Expr => ({ kind: 'column', qualifier: null, name, type }) as Expr;
const bin = (op: '+' | '-' | '*', left: Expr, right: Expr, type: DataType): Expr =>
  ({ kind: 'binary', op, left, right, type }) as Expr;
const schemaOf = (types: DataType[]): Schema => ({
  fields: types.map((type, i) => ({ name: `c${i}`, qualifier: null, type, nullable: true })),
});

const N = 5_000;
let seed = 7;
const rng = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
/** Every 7th row or so, ascending (a filter's survivors). */
const picked = Int32Array.from({ length: N }, (_, i) => i).filter(() => rng() < 0.15);

/** A decimal column of prices (cents) and one of small discounts with a narrow Int8 copy attached. */
function sources(): Column[] {
  const price = Float64Array.from({ length: N }, () => Math.floor(rng() * 10_000_000) - 5_000_000);
  const disc = Float64Array.from({ length: N }, () => Math.floor(rng() * 11));
  attachNarrow(disc, narrowValues(disc, null, N)!);
  return [makeColumn(D2, price, null, N), makeColumn(D2, disc, null, N)];
}

/** The expression over the gathered batch, and over a batch of the same rows copied. */
function both(
  e: Expr,
  cols: Column[],
  indices: Int32Array[],
): { gathered: (string | null)[]; copied: (string | null)[] } {
  const schema = schemaOf(cols.map((c) => c.type));
  const n = indices[0]!.length;
  const gatheredCols = cols.flatMap((c, i) => gatherColumns([c], indices[i] ?? indices[0]!, n, false));
  const copiedCols = cols.map((c, i) => take(c, indices[i] ?? indices[0]!, n));
  const text = (c: Column) => Array.from({ length: n }, (_, i) => cellText(c, i));
  const run = (columns: Column[]) => text(compileExpr(e, schema).evaluate(makeBatch(schema, columns, n)));
  return { gathered: run(gatheredCols), copied: run(copiedCols) };
}

test('price * discount, price + discount, price - discount over survivors: the copied rows’ values', () => {
  const cols = sources();
  const [price, disc] = [col('c0', D2), col('c1', D2)];
  for (const e of [bin('*', price, disc, D4), bin('+', price, disc, D2), bin('-', disc, price, D2)]) {
    const { gathered, copied } = both(e, cols, [picked]);
    assert.ok(copied.some((v) => v !== '0.00' && v !== '0.0000'));
    assert.deepEqual(gathered, copied);
  }
});

test('NULLs, different index arrays and results past 2^53 give the same values as the copying kernels', () => {
  const values = Float64Array.from({ length: N }, (_, i) => i * 1_000 - 7);
  const withNulls = makeColumn(
    I64,
    values,
    Uint8Array.from(values, (_, i) => (i % 5 === 0 ? 0 : 1)),
    N,
  );
  const a = makeColumn(I64, values, null, N);
  // Sums stay exact, products of 2^40 leave ±2^53: the BigInt kernel answers (2^80: out of int64's range).
  const huge = makeColumn(
    I64,
    Float64Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 2 ** 40 : i)),
    null,
    N,
  );
  const [x, y] = [col('c0', I64), col('c1', I64)];
  const cases: [Column[], Int32Array[]][] = [
    [[a, a], [picked]],
    [[a, withNulls], [picked]],
    [
      [a, a],
      [picked, picked.map((i) => N - 1 - i)],
    ],
    [[huge, a], [picked]],
  ];
  for (const [cols, indices] of cases) {
    for (const op of ['*', '+', '-'] as const) {
      const { gathered, copied } = both(bin(op, x, y, I64), cols, indices);
      assert.deepEqual(gathered, copied, `${op}`);
    }
  }
  assert.throws(() => both(bin('*', x, y, I64), [huge, huge], [picked]), /out of range/);
});
