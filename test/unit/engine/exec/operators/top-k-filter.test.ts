// `candidateRows`: which rows may still enter a TopK given its K-th key, for every direction, NULL placement and
// value representation (numbers, bigints, NaN, text as strings or UTF-8 bytes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Column } from '../../../../../engine/arrow/column.js';
import { candidateRows } from '../../../../../engine/exec/operators/top-k-filter.js';
import type { DataType } from '../../../../../engine/plan/types.js';

const INT32: DataType = { id: 'int32' };
const INT64: DataType = { id: 'int64' };
const FLOAT64: DataType = { id: 'float64' };
const UTF8: DataType = { id: 'utf8' };

function col(type: DataType, values: Column['values'], valid: number[] | null = null): Column {
  const length = Array.isArray(values) ? values.length : (values as ArrayLike<unknown>).length;
  return { type, length, values, valid: valid === null ? null : Uint8Array.from(valid) };
}

function utf8Bytes(s: string[]): Column {
  const enc = new TextEncoder();
  const parts = s.map((x) => enc.encode(x));
  const offsets = new Int32Array(s.length + 1);
  parts.forEach((p, i) => {
    offsets[i + 1] = offsets[i]! + p.length;
  });
  const bytes = new Uint8Array(offsets[s.length]!);
  for (const [i, p] of parts.entries()) bytes.set(p, offsets[i]!);
  return { type: UTF8, length: s.length, values: { offsets, bytes }, valid: null };
}

const ASC_LAST = { ascending: true, nullsFirst: false };
const ASC_FIRST = { ascending: true, nullsFirst: true };
const DESC_FIRST = { ascending: false, nullsFirst: true };
const DESC_LAST = { ascending: false, nullsFirst: false };
const ints = col(INT32, Int32Array.from([5, 1, 9, 5, 0, 7]), [1, 1, 1, 1, 0, 1]);
const five = col(INT32, Int32Array.of(5));
const nullKth = col(INT32, Int32Array.of(0), [0]);

const cases: [string, Column, Column, typeof ASC_LAST, number[] | null][] = [
  ['asc nulls last: values up to the bound, ties kept', ints, five, ASC_LAST, [0, 1, 3]],
  ['asc nulls first: NULLs sort before the bound', ints, five, ASC_FIRST, [0, 1, 3, 4]],
  ['desc nulls first', ints, five, DESC_FIRST, [0, 2, 3, 4, 5]],
  ['desc nulls last', ints, five, DESC_LAST, [0, 2, 3, 5]],
  ['a NULL K-th key with NULLS LAST keeps every row', ints, nullKth, ASC_LAST, null],
  ['a NULL K-th key with NULLS FIRST keeps only NULLs', ints, nullKth, DESC_FIRST, [4]],
  [
    'int64 held as bigints against a number bound, exactly past 2^53',
    col(INT64, BigInt64Array.from([2n ** 60n, 2n ** 60n + 1n, 3n])),
    col(INT64, BigInt64Array.of(2n ** 60n)),
    ASC_LAST,
    [0, 2],
  ],
  [
    'int64 held as numbers against a bigint bound',
    col(INT64, Float64Array.from([1, 2 ** 52, -4])),
    col(INT64, BigInt64Array.of(2n ** 60n)),
    DESC_LAST,
    [],
  ],
  [
    'NaN sorts above every number',
    col(FLOAT64, Float64Array.from([Number.NaN, 1, 3])),
    col(FLOAT64, Float64Array.of(2)),
    ASC_LAST,
    [1],
  ],
  [
    'a NaN bound keeps every row ascending',
    col(FLOAT64, Float64Array.from([Number.NaN, 1])),
    col(FLOAT64, Float64Array.of(Number.NaN)),
    ASC_LAST,
    null,
  ],
  [
    'a NaN bound keeps only NaN descending',
    col(FLOAT64, Float64Array.from([Number.NaN, 1])),
    col(FLOAT64, Float64Array.of(Number.NaN)),
    DESC_LAST,
    [0],
  ],
  ['text as strings, code point order', col(UTF8, ['b', 'a', 'é', 'bb', 'B']), col(UTF8, ['b']), ASC_LAST, [0, 1, 4]],
  ['text as UTF-8 bytes', utf8Bytes(['b', 'a', 'é', 'bb', 'B']), col(UTF8, ['bb']), DESC_LAST, [2, 3]],
];

test('candidateRows keeps the rows that sort before or tie the K-th key', () => {
  for (const [name, c, kth, spec, want] of cases) {
    const got = candidateRows(c, kth, spec);
    assert.deepEqual(got === null ? null : Array.from(got), want, name);
  }
});
