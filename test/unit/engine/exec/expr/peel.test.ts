// Peeling an expression of one text column off a gather: it runs once over the gathered column's source when that
// source feeds several batches, answers what the plain evaluation answers, and is refused for expressions that may
// raise or read another column, and for outer-join padding.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Batch } from '../../../../../engine/arrow/batch.js';
import type { Column } from '../../../../../engine/arrow/column.js';
import { gatherColumns } from '../../../../../engine/arrow/gathered-column.js';
import { peelableColumn, peelGather } from '../../../../../engine/exec/expr/peel.js';
import { columnIndex, compileExpr } from '../../../../../engine/exec/expr/physical-expr.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import { col, lit } from '../../../../../engine/plan/expr/index.js';
import { BOOL, batchOf, column, INT32, schemaOf, UTF8 } from '../../../../helpers/batches.js';

const schema = schemaOf([
  ['s', UTF8, true],
  ['n', INT32],
]);
const names = Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? null : `${i % 3 === 0 ? 'PROMO' : 'STD'} ${i}`));
const source = column(UTF8, names);
const numbers = column(
  INT32,
  names.map((_, i) => i),
);

/** Batches of `size` rows gathered from the source, as a join's output is (indices hop around the source). */
function gatheredBatches(
  count: number,
  size: number,
  padded = false,
  text: Column = source,
): { batch: Batch; indices: Int32Array }[] {
  return Array.from({ length: count }, (_, k) => {
    const indices = Int32Array.from({ length: size }, (_, i) => (padded && i % 5 === 0 ? -1 : (i * 37 + k * 11) % 400));
    return { batch: batchOf(schema, gatherColumns([text, numbers], indices, size, padded)), indices };
  });
}

const like: Expr = {
  kind: 'like',
  expr: col(null, 's', UTF8),
  pattern: lit('PROMO%', UTF8),
  negated: false,
  caseInsensitive: false,
  escape: '\\',
  type: BOOL,
} as Expr;
const at = (e: Expr) => peelableColumn(e, schema, (q, n) => columnIndex(schema, q, n));
const bools = (c: Column) =>
  Array.from({ length: c.length }, (_, i) => (c.valid?.[i] === 0 ? null : (c.values as Uint8Array)[i] === 1));

/** `inner`, noting the length of each batch it evaluates. */
function counting(inner: { evaluate(b: Batch): Column }, seen: number[]): { evaluate(b: Batch): Column } {
  return {
    evaluate(b) {
      seen.push(b.length);
      return inner.evaluate(b);
    },
  };
}

test('a peeled LIKE answers as the plain one, batch after batch, and reads the source once', () => {
  const seen: number[] = [];
  const plain = compileExpr(like, schema);
  const peeled = peelGather(at(like), counting(plain, seen));
  for (const { batch, indices } of gatheredBatches(6, 40)) {
    const expected = names.map((s) => (s === null ? null : s.startsWith('PROMO')));
    assert.deepEqual(
      bools(peeled.evaluate(batch)),
      Array.from(indices, (i) => expected[i]),
    );
  }
  // Batch 1 alone, then the whole source once (rows 80 × 16 >= 400), then only gathers.
  assert.deepEqual(seen, [40, 400]);
});

test('padded rows (outer joins) are never peeled: the expression sees its NULL input', () => {
  const seen: number[] = [];
  const coalesced: Expr = {
    kind: 'case',
    whens: [
      { when: { kind: 'unary', op: 'is_null', expr: col(null, 's', UTF8), type: BOOL }, result: lit(true, BOOL) },
    ],
    otherwise: lit(false, BOOL),
    type: BOOL,
  } as Expr;
  assert.equal(at(coalesced), 0);
  const plain = compileExpr(coalesced, schema);
  const peeled = peelGather(0, counting(plain, seen));
  for (const { batch, indices } of gatheredBatches(4, 50, true)) {
    const out = bools(peeled.evaluate(batch));
    assert.deepEqual(
      out,
      Array.from(indices, (i) => i < 0 || names[i] === null),
    );
  }
  assert.deepEqual(seen, [50, 50, 50, 50]);
});

test('only computations of one text column that cannot raise are peelable', () => {
  assert.equal(at(like), 0);
  assert.equal(at(col(null, 's', UTF8)), -1, 'a bare column');
  const cast: Expr = { kind: 'cast', expr: col(null, 's', UTF8), type: INT32 } as Expr;
  assert.equal(at({ kind: 'binary', op: '=', left: cast, right: lit(1, INT32), type: BOOL } as Expr), -1, 'a cast');
  const call: Expr = { kind: 'call', name: 'upper', args: [col(null, 's', UTF8)], type: UTF8 } as Expr;
  assert.equal(at(call), -1, 'a function call');
  const two: Expr = {
    kind: 'binary',
    op: 'and',
    left: like,
    right: { kind: 'binary', op: '>', left: col(null, 'n', INT32), right: lit(3, INT32), type: BOOL },
    type: BOOL,
  } as Expr;
  assert.equal(at(two), -1, 'two columns');
  assert.equal(
    at({ kind: 'binary', op: '>', left: col(null, 'n', INT32), right: lit(3, INT32), type: BOOL } as Expr),
    -1,
  );
});

test('compiled expressions peel gathered text end to end (CASE over a LIKE, as Q14): the text is not copied per batch', () => {
  const e: Expr = {
    kind: 'case',
    whens: [{ when: like, result: col(null, 'n', INT32) }],
    otherwise: lit(0, INT32),
    type: INT32,
  } as Expr;
  // The text column's values, counted: each batch that copies its gathered rows reads them once.
  let reads = 0;
  const counted: Column = {
    type: UTF8,
    length: source.length,
    valid: source.valid,
    get values() {
      reads++;
      return source.values;
    },
  };
  const compiled = compileExpr(e, schema);
  const batches = gatheredBatches(8, 60, false, counted);
  for (const { batch, indices } of batches) {
    const out = compiled.evaluate(batch);
    assert.deepEqual(
      Array.from(out.values as Int32Array),
      Array.from(indices, (i) => (names[i]?.startsWith('PROMO') ? i : 0)),
    );
  }
  // Copying each batch's rows reads the text twice a batch (16 here); peeled, it is read where it lies (4).
  assert.ok(reads < batches.length, `the text was read ${reads} times over ${batches.length} batches`);
});
