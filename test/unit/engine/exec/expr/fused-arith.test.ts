// Trees of +, -, * over exact numbers in one loop: the same values as BigInt arithmetic row by row, NULLs kept,
// and the per-operator kernels taking over where a value leaves ±2^53 or a column holds BigInts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeBatch } from '../../../../../engine/arrow/batch.js';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { canFuse } from '../../../../../engine/exec/expr/fused-arith.js';
import { compileExpr } from '../../../../../engine/exec/expr/physical-expr.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import type { DataType, Schema } from '../../../../../engine/plan/types.js';

const N = 2_000;
const D2: DataType = { id: 'decimal', precision: 15, scale: 2 };
const D4: DataType = { id: 'decimal', precision: 30, scale: 4 };
const D6: DataType = { id: 'decimal', precision: 38, scale: 6 };
const I64: DataType = { id: 'int64' };

const col = (name: string, type: DataType): Expr => ({ kind: 'column', qualifier: null, name, type }) as Expr;
const lit = (value: number, type: DataType): Expr => ({ kind: 'literal', value, type }) as Expr;
const bin = (op: '+' | '-' | '*', left: Expr, right: Expr, type: DataType): Expr =>
  ({ kind: 'binary', op, left, right, type }) as Expr;

const price = col('price', D2);
const disc = col('disc', D2);
const tax = col('tax', D2);
const qty = col('qty', I64);
const small = col('small', { id: 'int32' });

/** q1's charge, a revenue, and integer trees with an int32 leaf and a literal on the left. */
const revenue = bin('*', price, bin('-', lit(100, D2), disc, D2), D4);
const EXPRS: Expr[] = [
  revenue,
  bin('*', revenue, bin('+', lit(100, D2), tax, D2), D6),
  bin('-', bin('*', bin('-', qty, lit(7, I64), I64), bin('+', qty, qty, I64), I64), qty, I64),
  bin('+', lit(-3, I64), bin('*', col('small64', I64), qty, I64), I64),
];

const schema: Schema = {
  fields: ['price', 'disc', 'tax', 'qty', 'small64'].map((name, i) => ({
    name,
    qualifier: null,
    type: [D2, D2, D2, I64, I64][i]!,
    nullable: true,
  })),
};

/** Row i of a tree, exactly (null when a column is NULL there). */
function reference(e: Expr, row: (name: string) => bigint | null): bigint | null {
  if (e.kind === 'literal') return BigInt(e.value as number);
  if (e.kind === 'column') return row(e.name);
  if (e.kind !== 'binary') throw new Error('unexpected');
  const l = reference(e.left, row);
  const r = reference(e.right, row);
  if (l === null || r === null) return null;
  return e.op === '+' ? l + r : e.op === '-' ? l - r : l * r;
}

function columns(seed: number, nulls: boolean, big: boolean, bigints: boolean): Column[] {
  let s = seed;
  const next = () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
  const make = (lo: number, hi: number, type: DataType): Column => {
    const v = Float64Array.from({ length: N }, () => lo + Math.floor(next() * (hi - lo)));
    const valid = nulls ? Uint8Array.from({ length: N }, () => (next() < 0.1 ? 0 : 1)) : null;
    return makeColumn(type, v, valid, N);
  };
  const qtyCol = make(-1e6, 1e6, I64);
  if (big) (qtyCol.values as Float64Array)[N >> 1] = 2 ** 27 + 1;
  const small64 = bigints
    ? makeColumn(
        I64,
        BigInt64Array.from({ length: N }, (_, i) => BigInt(i - 1000)),
        null,
        N,
      )
    : make(-50, 50, I64);
  return [make(90_000, 10_500_000, D2), make(0, 11, D2), make(0, 9, D2), qtyCol, small64];
}

test('the fused loops give the exact values of BigInt arithmetic, with and without NULLs and fallbacks', () => {
  assert.ok(EXPRS.every(canFuse));
  assert.equal(canFuse(bin('*', price, disc, D4)), false);
  assert.equal(canFuse(bin('+', small, bin('+', small, small, { id: 'int32' }), { id: 'int32' })), false);
  let seed = 7;
  for (const nulls of [false, true])
    for (const big of [false, true])
      for (const bigints of [false, true]) {
        const cols = columns(seed++, nulls, big, bigints);
        const batch = makeBatch(schema, cols, N);
        for (const e of EXPRS) {
          const got = compileExpr(e, schema).evaluate(batch);
          assert.deepEqual(got.type, e.type);
          for (let i = 0; i < N; i++) {
            const row = (name: string) => {
              const c = cols[schema.fields.findIndex((f) => f.name === name)]!;
              return c.valid !== null && c.valid[i] === 0
                ? null
                : BigInt((c.values as Float64Array | BigInt64Array)[i]!);
            };
            const want = reference(e, row);
            const text = cellText(got, i);
            if (want === null) assert.equal(text, null);
            else
              assert.equal(
                BigInt(text!.replace('.', '')),
                want,
                `row ${i} nulls=${nulls} big=${big} bigints=${bigints}`,
              );
          }
        }
      }
});
