// A literal evaluates to one constant column per batch length, shared by the batches of that length; a column
// whose buffer was moved to another thread is made again rather than handed out empty.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeBatch } from '../../../../../engine/arrow/batch.js';
import { compileExpr } from '../../../../../engine/exec/expr/physical-expr.js';
import { FLOAT64, UTF8 } from '../../../../../engine/plan/types.js';

const schema = { fields: [] };
const batch = (n: number) => makeBatch(schema, [], n);

test('literal columns: right length and value for each batch, shared between equal lengths', () => {
  const one = compileExpr({ kind: 'literal', value: 1.5, type: FLOAT64 }, schema);
  const a = one.evaluate(batch(3));
  const b = one.evaluate(batch(5));
  const c = one.evaluate(batch(5));
  assert.deepEqual([a.length, b.length], [3, 5]);
  assert.deepEqual([...(a.values as Float64Array)], [1.5, 1.5, 1.5]);
  assert.deepEqual([...(b.values as Float64Array)], [1.5, 1.5, 1.5, 1.5, 1.5]);
  assert.equal(c, b);
  const text = compileExpr({ kind: 'literal', value: 'x', type: UTF8 }, schema).evaluate(batch(2));
  assert.deepEqual(text.values, ['x', 'x']);
});

test('literal columns: a column whose buffer was transferred away is made again', () => {
  const one = compileExpr({ kind: 'literal', value: 7, type: FLOAT64 }, schema);
  const first = one.evaluate(batch(4));
  structuredClone(first.values, { transfer: [(first.values as Float64Array).buffer as ArrayBuffer] });
  assert.equal((first.values as Float64Array).length, 0);
  const again = one.evaluate(batch(4));
  assert.notEqual(again, first);
  assert.deepEqual([...(again.values as Float64Array)], [7, 7, 7, 7]);
});
