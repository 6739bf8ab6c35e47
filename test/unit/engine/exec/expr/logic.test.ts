// Three-valued AND / OR against the truth tables, with and without validity, and the NULL type; text IN-list
// matching on UTF-8 bytes against JavaScript string equality.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { and, or } from '../../../../../engine/exec/expr/logic.js';
import { matchUtf8Literals, selectUtf8Literals } from '../../../../../engine/exec/expr/utf8-match.js';
import { BOOL, UTF8 } from '../../../../../engine/plan/types.js';
import { utf8Bytes } from '../../../../helpers/batches.js';
import { makeRng } from '../../../../helpers/gen-data.js';

type Tri = boolean | null;
const TRI: Tri[] = [true, false, null];

/** Every pair of truth values, as two columns (`withValidity` false: the NULL rows are left out). */
function pairs(withValidity: boolean): { a: Column; b: Column; rows: [Tri, Tri][] } {
  const rows = TRI.flatMap((x) => TRI.map((y): [Tri, Tri] => [x, y])).filter(
    ([x, y]) => withValidity || (x !== null && y !== null),
  );
  const column = (side: 0 | 1) => {
    const v = rows.map((r) => r[side]);
    const valid = withValidity ? Uint8Array.from(v, (x) => (x === null ? 0 : 1)) : null;
    // Values under NULL are garbage (1 on the left, 0 on the right): a kernel that reads them unchecked errs.
    const garbage = side === 0 ? 1 : 0;
    const values = Uint8Array.from(v, (x) => (x === null ? garbage : x ? 1 : 0));
    return makeColumn(BOOL, values, valid, v.length);
  };
  return { a: column(0), b: column(1), rows };
}

const read = (c: Column): Tri[] =>
  Array.from({ length: c.length }, (_, i) =>
    c.valid !== null && c.valid[i] === 0 ? null : (c.values as Uint8Array)[i] === 1,
  );
const AND = (x: Tri, y: Tri): Tri => (x === false || y === false ? false : x === null || y === null ? null : true);
const OR = (x: Tri, y: Tri): Tri => (x === true || y === true ? true : x === null || y === null ? null : false);

for (const withValidity of [false, true]) {
  test(`AND / OR truth tables${withValidity ? ' with NULLs' : ''}`, () => {
    const { a, b, rows } = pairs(withValidity);
    assert.deepEqual(
      read(and(a, b)),
      rows.map(([x, y]) => AND(x, y)),
    );
    assert.deepEqual(
      read(or(a, b)),
      rows.map(([x, y]) => OR(x, y)),
    );
    // One side with validity, the other without.
    const plain = makeColumn(
      BOOL,
      Uint8Array.from(rows, () => 1),
      null,
      rows.length,
    );
    assert.deepEqual(
      read(and(a, plain)),
      rows.map(([x]) => AND(x, true)),
    );
    assert.deepEqual(
      read(or(plain, b)),
      rows.map(() => true),
    );
  });
}

test('AND / OR with the NULL type', () => {
  const nulls = makeColumn({ id: 'null' }, null, null, 2);
  const bools = makeColumn(BOOL, Uint8Array.from([1, 0]), null, 2);
  assert.deepEqual(read(and(nulls, bools)), [null, false]);
  assert.deepEqual(read(or(bools, nulls)), [true, null]);
});

test('matchUtf8Literals equals string equality: lengths, empty text, non-ASCII, shared prefixes', () => {
  const rnd = makeRng(5);
  const alphabet = ['a', 'b', 'é', '€', '𝄞', 'MAIL', 'SHIP'];
  const word = () => Array.from({ length: Math.floor(rnd() * 4) }, () => alphabet[Math.floor(rnd() * 7)]).join('');
  const values = Array.from({ length: 3000 }, word);
  const { offsets, bytes } = utf8Bytes(values);
  const col = makeColumn(UTF8, { offsets, bytes }, null, values.length);
  // ['a', 'b'] and ['ab', 'bb', 'é']: literals all of one or two bytes (a table lookup when the JS loops run).
  for (const literals of [
    ['MAIL', 'SHIP'],
    [''],
    ['a', 'ab', 'ba', 'é', '€𝄞'],
    ['zz'],
    [],
    ['b', 'b', 'aMAIL'],
    ['a', 'b'],
    ['ab', 'bb', 'é'],
  ]) {
    const hits = matchUtf8Literals(col, literals);
    assert.ok(hits !== null);
    assert.deepEqual(
      [...hits],
      values.map((v) => (literals.includes(v) ? 1 : 0)),
      literals.join(','),
    );
  }
  assert.equal(matchUtf8Literals(makeColumn(UTF8, ['a'], null, 1), ['a']), null, 'JS strings: not on bytes');
  // As a filter step: NULL rows never kept, NOT IN keeps the rest, a selection narrowed in place.
  const valid = Uint8Array.from(values, () => (rnd() < 0.15 ? 0 : 1));
  const withNulls = makeColumn(UTF8, { offsets, bytes }, valid, values.length);
  const sel = Int32Array.from(values.keys()).filter(() => rnd() < 0.5);
  for (const literals of [['MAIL', 'SHIP'], ['a', 'ab', 'é'], [], ['a', 'b'], ['ab', 'bb', 'é']]) {
    for (const negated of [false, true]) {
      const passes = (i: number) => valid[i] === 1 && literals.includes(values[i]!) !== negated;
      const out = new Int32Array(values.length);
      const k = selectUtf8Literals(withNulls, literals, negated, null, values.length, out);
      assert.deepEqual([...out.subarray(0, k)], [...values.keys()].filter(passes), `${literals} negated ${negated}`);
      // A selection over half the rows runs in WebAssembly (short literals); one under an eighth, in JavaScript.
      for (const some of [sel, sel.filter((_, j) => j % 12 === 0)]) {
        const inPlace = some.slice();
        const m = selectUtf8Literals(withNulls, literals, negated, inPlace, inPlace.length, inPlace);
        assert.deepEqual(
          [...inPlace.subarray(0, m)],
          [...some].filter(passes),
          `${literals} negated ${negated}, ${some.length} selected`,
        );
      }
    }
  }
});

test('selectUtf8Literals with a prefix: substring(x, 1, L) IN (L-byte ASCII literals), NULLs, selections', () => {
  // 330 rows: short literals run in WebAssembly from 256 rows on (the selection below keeps over an eighth).
  const values = Array.from({ length: 30 }, () => [
    '13-555',
    '31',
    '1',
    '',
    '13',
    'é3-1',
    '3é',
    'MAIL',
    'MA',
    '29x',
    '131',
  ]).flat();
  const { offsets, bytes } = utf8Bytes(values);
  const valid = Uint8Array.from(values, (_, i) => (i % 11 === 9 || i === 40 ? 0 : 1));
  const col = makeColumn(UTF8, { offsets, bytes }, valid, values.length);
  const sel = Int32Array.from(values.keys()).filter((i) => i % 3 !== 1);
  for (const [literals, prefix] of [
    [['13', '31', '29'], 2],
    [['1'], 1],
    [['MAI', '131'], 3],
    [['13'], 2],
  ] as const) {
    for (const negated of [false, true]) {
      const head = (v: string) => [...v].slice(0, prefix).join('');
      const passes = (i: number) =>
        valid[i] === 1 && (literals as readonly string[]).includes(head(values[i]!)) !== negated;
      const out = new Int32Array(values.length);
      const k = selectUtf8Literals(col, literals, negated, null, values.length, out, prefix);
      const what = `${literals} prefix ${prefix} negated ${negated}`;
      assert.deepEqual([...out.subarray(0, k)], [...values.keys()].filter(passes), what);
      for (const some of [sel, sel.filter((_, j) => j % 12 === 0)]) {
        const inPlace = some.slice();
        const m = selectUtf8Literals(col, literals, negated, inPlace, inPlace.length, inPlace, prefix);
        assert.deepEqual([...inPlace.subarray(0, m)], [...some].filter(passes), `${what}, ${some.length} selected`);
      }
    }
  }
});
