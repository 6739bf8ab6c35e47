// `normalizedOrder` against the comparator sort it replaces (stable, every spec, NULLs, text ranks), and the
// keys it leaves to the comparator.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { textCodesOf } from '../../../../../engine/arrow/gathered-column.js';
import { chainComparators, rowComparator, type SortSpec } from '../../../../../engine/arrow/kernels/compare-rows.js';
import { attachCodes } from '../../../../../engine/arrow/text-dictionary.js';
import { normalizedOrder } from '../../../../../engine/exec/operators/normalized-sort.js';
import { DATE, FLOAT64, INT32, INT64, UTF8 } from '../../../../../engine/plan/types.js';
import { utf8Bytes } from '../../../../helpers/batches.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const n = 3000;
const rng = makeRng(5);
const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const nulls = () => Uint8Array.from({ length: n }, () => (rng() < 0.1 ? 0 : 1));
const WORDS = ['Brand#12', 'Brand#45', 'MEDIUM POLISHED', '', 'é', 'zeta', 'Brand#1'];

const ints = makeColumn(
  INT32,
  Int32Array.from({ length: n }, () => int(-50, 50)),
  nulls(),
  n,
);
const counts = makeColumn(
  INT64,
  Float64Array.from({ length: n }, () => int(0, 9)),
  null,
  n,
);
const days = makeColumn(
  DATE,
  Int32Array.from({ length: n }, () => int(9000, 9030)),
  null,
  n,
);
const words = makeColumn(
  UTF8,
  Array.from({ length: n }, () => WORDS[int(0, WORDS.length - 1)]!),
  nulls(),
  n,
);

function compared(columns: readonly Column[], specs: readonly SortSpec[]): number[] {
  const cmp = chainComparators(columns.map((c, k) => rowComparator(c, specs[k]!)));
  return Array.from({ length: n }, (_, i) => i).sort(cmp);
}

const SPECS: SortSpec[] = [
  { ascending: true, nullsFirst: false },
  { ascending: false, nullsFirst: true },
  { ascending: true, nullsFirst: true },
  { ascending: false, nullsFirst: false },
];

test('normalizedOrder: the comparator sort, for every direction and NULL placement', () => {
  for (const [name, columns] of [
    ['int with NULLs', [ints]],
    ['text with NULLs, count, date', [words, counts, days]],
    ['count, text, int', [counts, words, ints]],
  ] as const) {
    for (const spec of SPECS) {
      const specs = columns.map((_, k) => SPECS[(SPECS.indexOf(spec) + k) % SPECS.length]!);
      const order = normalizedOrder(columns, specs, n);
      assert.ok(order !== null, name);
      assert.deepEqual([...order], compared(columns, specs), `${name} ${JSON.stringify(specs)}`);
    }
  }
});

test('normalizedOrder: text with a dictionary attached ranks the dictionary, same order, NULL rows placed', () => {
  // The words as UTF-8 bytes with codes into a dictionary of their distinct values (out of sorted order), NULL
  // rows holding any code.
  const dict = ['zeta', 'Brand#45', '', 'Brand#1', 'é', 'MEDIUM POLISHED', 'Brand#12'];
  const text = words.values as readonly string[];
  const codes = Uint8Array.from(text, (w, i) => (words.valid![i] === 0 ? 3 : dict.indexOf(w)));
  const bytes = utf8Bytes(text);
  attachCodes(bytes, { values: utf8Bytes(dict), size: dict.length }, codes);
  const coded = makeColumn(UTF8, bytes, words.valid, n);
  assert.notEqual(textCodesOf(coded), null);
  for (const spec of SPECS) {
    const specs = [spec, SPECS[0]!];
    const order = normalizedOrder([coded, counts], specs, n);
    assert.ok(order !== null);
    assert.deepEqual([...order], compared([words, counts], specs), JSON.stringify(spec));
  }
});

test('normalizedOrder with a limit: the first rows of the full order (a heap picks them), ties in row order', () => {
  for (const [name, columns] of [
    ['int with NULLs', [ints]],
    ['count, text, int', [counts, words, ints]],
    ['count (ties across the cut)', [counts]],
  ] as const) {
    for (const spec of SPECS) {
      const specs = columns.map((_, k) => SPECS[(SPECS.indexOf(spec) + k) % SPECS.length]!);
      const full = compared(columns, specs);
      // 0, 1, heap sizes well under n / 16 (odd and even), and limits that sort every row.
      for (const limit of [0, 1, 20, 101, 187, 188, 500, n]) {
        const order = normalizedOrder(columns, specs, n, limit);
        assert.ok(order !== null, name);
        assert.deepEqual([...order], full.slice(0, limit), `${name} limit ${limit} ${JSON.stringify(specs)}`);
      }
    }
  }
});

test('normalizedOrder: fractions, NaN, mostly distinct text and keys too wide for 53 bits go to the comparator', () => {
  const asc = [SPECS[0]!];
  const fractions = makeColumn(
    FLOAT64,
    Float64Array.from({ length: n }, () => rng()),
    null,
    n,
  );
  assert.equal(normalizedOrder([fractions], asc, n), null);
  const nan = makeColumn(
    FLOAT64,
    Float64Array.from({ length: n }, (_, i) => (i === 7 ? Number.NaN : i)),
    null,
    n,
  );
  assert.equal(normalizedOrder([nan], asc, n), null);
  const distinct = makeColumn(
    UTF8,
    Array.from({ length: n }, (_, i) => `row ${i}`),
    null,
    n,
  );
  assert.equal(normalizedOrder([distinct], asc, n), null);
  const wide = makeColumn(
    FLOAT64,
    Float64Array.from({ length: n }, (_, i) => i * 2 ** 30),
    null,
    n,
  );
  assert.equal(normalizedOrder([wide, wide], [asc[0]!, asc[0]!], n), null);
});
