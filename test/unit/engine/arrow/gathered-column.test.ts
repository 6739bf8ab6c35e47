// `gatherColumns`: rows by index copied on first read, composed when gathered again (NULL padding kept).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn, strings } from '../../../../engine/arrow/column.js';
import {
  compactBatch,
  compactColumns,
  concatLazily,
  gatherColumns,
  gatheredFrom,
  takeRows,
} from '../../../../engine/arrow/gathered-column.js';
import { INT32, UTF8 } from '../../../../engine/plan/types.js';

const ints = (values: (number | null)[]): Column =>
  makeColumn(
    INT32,
    Int32Array.from(values, (v) => v ?? 0),
    values.includes(null) ? Uint8Array.from(values, (v) => (v === null ? 0 : 1)) : null,
    values.length,
  );
const read = (c: Column) => Array.from({ length: c.length }, (_, i) => (c.valid?.[i] === 0 ? null : read1(c, i)));
const read1 = (c: Column, i: number) => (c.type.id === 'utf8' ? strings(c)[i] : (c.values as Int32Array)[i]);

test('rows come out in index order, NULLs of the source kept', () => {
  const [a] = gatherColumns([ints([10, null, 30, 40])], Int32Array.of(3, 1, 0, 0, 9), 4, false);
  assert.equal(a!.length, 4);
  assert.deepEqual(read(a!), [40, null, 10, 10]);
});

test('padded: index -1 is a NULL row', () => {
  const [a] = gatherColumns([ints([10, 20])], Int32Array.of(1, -1, 0), 3, true);
  assert.deepEqual(read(a!), [20, null, 10]);
});

test('gathering a gathered column composes the indices, padding from either step included', () => {
  const text = makeColumn(UTF8, ['a', 'b', 'c', 'd'], null, 4);
  const first = gatherColumns([ints([10, 20, 30, 40]), text], Int32Array.of(3, -1, 1, 2), 4, true);
  const second = gatherColumns(first, Int32Array.of(2, 1, -1, 0, 0), 5, true);
  assert.deepEqual(read(second[0]!), [20, null, null, 40, 40]);
  assert.deepEqual(read(second[1]!), ['b', null, null, 'd', 'd']);
  const third = gatherColumns(second, Int32Array.of(4, 3), 2, false);
  assert.deepEqual(read(third[0]!), [40, 40]);
  assert.equal(third[1]!.valid?.includes(0) ?? false, false);
});

test('a column read before it is gathered again gives the same rows either way', () => {
  const [a] = gatherColumns([ints([1, 2, 3])], Int32Array.of(2, 0), 2, false);
  assert.deepEqual(read(a!), [3, 1]);
  const [b] = gatherColumns([a!], Int32Array.of(1, 1, 0), 3, false);
  assert.deepEqual(read(b!), [1, 1, 3]);
});

test('the validity of rows from a column without NULLs is null, and asking for it copies nothing', () => {
  let reads = 0;
  const values = Int32Array.of(5, 6, 7);
  const source: Column = {
    type: INT32,
    length: 3,
    valid: null,
    get values() {
      reads++;
      return values;
    },
  };
  const [plain] = gatherColumns([source], Int32Array.of(2, 0), 2, false);
  assert.equal(plain!.valid, null);
  assert.equal(reads, 0);
  assert.deepEqual([...(plain!.values as Int32Array)], [7, 5]);
  const [padded] = gatherColumns([source], Int32Array.of(-1, 1), 2, true);
  assert.deepEqual([...padded!.valid!], [0, 1], 'outer-join padding still reads as NULL');
});

test('concatLazily: the parts one after another, copied only when read; validity of NULL-free parts without a copy', () => {
  let reads = 0;
  const counted = (values: Int32Array): Column => ({
    type: INT32,
    length: values.length,
    valid: null,
    get values() {
      reads++;
      return values;
    },
  });
  const whole = concatLazily([counted(Int32Array.of(1, 2)), counted(Int32Array.of(3))]);
  assert.equal(whole.length, 3);
  assert.equal(whole.valid, null);
  assert.equal(reads, 0, 'nothing copied before a read of the values');
  assert.deepEqual(read(whole), [1, 2, 3]);
  const withNulls = concatLazily([ints([1, null]), ints([7])]);
  assert.deepEqual(read(withNulls), [1, null, 7]);
  const one = ints([4]);
  assert.equal(concatLazily([one]), one, 'a single part is itself');
});

test('concatLazily over gathered parts copies from their sources: values, NULLs, padding and mixed parts', () => {
  const a = ints([10, null, 30, 40]);
  const b = makeColumn(INT32, Int32Array.of(7, 8, 9), null, 3);
  const [fromA] = gatherColumns([a], Int32Array.of(3, 1, 0), 3, false);
  const [fromB] = gatherColumns([b], Int32Array.of(2, 2), 2, false);
  assert.deepEqual(read(concatLazily([fromA!, fromB!])), [40, null, 10, 9, 9]);
  const [padded] = gatherColumns([b], Int32Array.of(-1, 0), 2, true);
  assert.deepEqual(read(concatLazily([fromB!, padded!])), [9, 9, null, 7], 'outer-join padding');
  assert.deepEqual(read(concatLazily([fromA!, b])), [40, null, 10, 7, 8, 9], 'a plain part among gathered ones');
  const doubles = makeColumn({ id: 'float64' }, Float64Array.of(1.5, 2.5), null, 2);
  const [fromDoubles] = gatherColumns([doubles], Int32Array.of(1), 1, false);
  const [fromDoubles2] = gatherColumns([doubles], Int32Array.of(0, 1), 2, false);
  assert.deepEqual([...(concatLazily([fromDoubles!, fromDoubles2!]).values as Float64Array)], [2.5, 1.5, 2.5]);
});

test('takeRows of a few rows gathered over lazily concatenated parts (taken from the parts) equals the rows', () => {
  const texts = makeColumn(UTF8, ['a', 'bb', 'ccc', 'dddd', 'e'], null, 5);
  const parts: Column[] = [
    ints(Array.from({ length: 40 }, (_, i) => (i % 9 === 0 ? null : i))),
    makeColumn(INT32, new Int32Array(0), null, 0),
    gatherColumns([ints([100, 101, 102, null])], Int32Array.of(3, 2, 1, 0, 1), 5, false)[0]!,
    ints(Array.from({ length: 35 }, (_, i) => 200 + i)),
  ];
  const all = parts.flatMap(read);
  const whole = concatLazily(parts);
  const at = Int32Array.from({ length: 70 }, (_, i) => (i * 37) % all.length);
  const [gathered] = gatherColumns([whole], at, at.length, false);
  const pick = Int32Array.of(69, 0, 5, 41, 44, 43, 79 % 70, 12, 12);
  assert.deepEqual(
    read(takeRows(gathered!, pick, pick.length)),
    Array.from(pick, (j) => all[at[j]!]),
  );
  // Text parts, rows from both ends, repeated.
  const textWhole = concatLazily([
    texts,
    makeColumn(
      UTF8,
      Array.from({ length: 60 }, (_, i) => `t${i}`),
      null,
      60,
    ),
  ]);
  const [t] = gatherColumns(
    [textWhole],
    Int32Array.from({ length: 65 }, (_, i) => 64 - i),
    65,
    false,
  );
  assert.deepEqual(strings(takeRows(t!, Int32Array.of(64, 0, 3, 60, 60), 5)), ['a', 't59', 't56', 'e', 'e']);
});

test('compactColumns copies a gather of a small part of its source, NULLs and padding kept', () => {
  const source = ints([1, null, 3, 4, 5, 6, 7, 8]);
  const [few] = gatherColumns([source], Int32Array.of(1, 6, -1), 3, true);
  const [most] = gatherColumns([source], Int32Array.of(0, 1, 2, 3, 4), 5, false);
  const [fromParts] = gatherColumns([concatLazily([source, source])], Int32Array.of(2), 1, false);
  const plain = ints([9]);
  const out = compactColumns([few!, most!, fromParts!, plain]);
  assert.equal(gatheredFrom(out[0]!), null, 'a gather of 3 of 8 rows is copied out');
  assert.deepEqual(read(out[0]!), [null, 7, null]);
  assert.equal(out[1], most, 'a gather of most rows stays lazy');
  assert.equal(out[2], fromParts, 'a gather of a lazily concatenated column stays lazy');
  assert.equal(out[3], plain);
  const unchanged = [most!, plain];
  assert.equal(compactColumns(unchanged), unchanged, 'nothing to copy: the same array');
});

test('compactBatch keeps the schema and length; text gathers copy their bytes', () => {
  const text = makeColumn(UTF8, ['a', 'bb', 'ccc', 'dddd', 'e'], null, 5);
  const [t] = gatherColumns([text], Int32Array.of(3, 0), 2, false);
  const schema = { fields: [{ name: 't', qualifier: null, type: UTF8, nullable: true }] };
  const b = compactBatch({ schema, columns: [t!], length: 2 });
  assert.equal(b.length, 2);
  assert.equal(b.schema, schema);
  assert.equal(gatheredFrom(b.columns[0]!), null);
  assert.deepEqual(read(b.columns[0]!), ['dddd', 'a']);
});

test('compactColumns leaves gathers of shared memory lazy (an accelerated table holds them anyway)', () => {
  const values = new Int32Array(new SharedArrayBuffer(8 * 4));
  values.set([1, 2, 3, 4, 5, 6, 7, 8]);
  const [few] = gatherColumns([makeColumn(INT32, values, null, 8)], Int32Array.of(5), 1, false);
  assert.equal(compactColumns([few!])[0], few);
});
