// Table dictionaries of text columns: codes in first-seen order that decode to every row, a cap on the distinct
// values, codes carried by slices and lazy concatenations, and the consumers (filter literals, peeled expressions)
// answering as the bytes do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sliceColumn } from '../../../../engine/arrow/batch.js';
import { type Column, MARKED_SLICE_ROWS, makeColumn, strings } from '../../../../engine/arrow/column.js';
import { concatLazily, gatherColumns, textCodesOf } from '../../../../engine/arrow/gathered-column.js';
import {
  attachCodes,
  attachedCodes,
  encodeDictionary,
  MAX_DICTIONARY,
} from '../../../../engine/arrow/text-dictionary.js';
import { peelableColumn, peelGather } from '../../../../engine/exec/expr/peel.js';
import { columnIndex, compileExpr } from '../../../../engine/exec/expr/physical-expr.js';
import { selectUtf8Literals } from '../../../../engine/exec/expr/utf8-match.js';
import { col, type Expr, lit } from '../../../../engine/plan/expr/index.js';
import { BOOL, INT32, UTF8 } from '../../../../engine/plan/types.js';
import { batchOf, bytesColumn, schemaOf } from '../../../helpers/batches.js';
import { makeRng } from '../../../helpers/gen-data.js';

/**
 * Values that share a length, a first and a last byte (`xay`/`xby`), one and two bytes long (a direct table), empty,
 * non-ASCII and over 64 bytes long.
 */
const VALUES = [
  'xay',
  'xby',
  '',
  'A',
  'R',
  'ab',
  'é',
  'MAIL',
  'REG AIR',
  'a'.repeat(70),
  'a'.repeat(71),
  'TAKE BACK RETURN',
  '€𝄞',
];

/** `count` rows drawn from VALUES, in runs (repeats) and at random. */
function rows(count: number, seed: number): string[] {
  const rnd = makeRng(seed);
  const out: string[] = [];
  while (out.length < count) {
    const v = VALUES[Math.floor(rnd() * VALUES.length)]!;
    const run = rnd() < 0.3 ? 1 + Math.floor(rnd() * 5) : 1;
    for (let r = 0; r < run && out.length < count; r++) out.push(v);
  }
  return out;
}

/** The parts' rows decoded through their codes. */
function decode(d: NonNullable<ReturnType<typeof encodeDictionary>>): string[] {
  const values = strings(makeColumn(UTF8, d.dictionary.values, null, d.dictionary.size));
  return d.codes.flatMap((c) => Array.from(c, (k) => values[k]!));
}

/** Parts coded into one dictionary, as an accelerated table attaches them. */
function codedParts(parts: readonly (readonly (string | null)[])[]): Column[] {
  const cols = parts.map(bytesColumn);
  const d = encodeDictionary(cols)!;
  for (const [i, c] of cols.entries()) attachCodes(c.values as never, d.dictionary, d.codes[i]!);
  return cols;
}

test('encodeDictionary: codes in first-seen order across parts that decode to every row', () => {
  const parts = [rows(500, 1), rows(1, 2), [], rows(333, 3)];
  const d = encodeDictionary(parts.map(bytesColumn));
  assert.ok(d !== null);
  assert.deepEqual(decode(d), parts.flat());
  assert.equal(d.dictionary.size, new Set(parts.flat()).size);
  const firstSeen = [...new Set(parts.flat())];
  assert.deepEqual(strings(makeColumn(UTF8, d.dictionary.values, null, d.dictionary.size)), firstSeen);
  assert.deepEqual(
    d.codes.map((c) => c.length),
    [500, 1, 0, 333],
  );
});

test('encodeDictionary: at most maxSize distinct values, and only UTF-8 bytes', () => {
  const many = Array.from({ length: MAX_DICTIONARY + 1 }, (_, i) => `v${i}`);
  const exactly = encodeDictionary([bytesColumn(many.slice(0, MAX_DICTIONARY)), bytesColumn(many.slice(0, 10))]);
  assert.equal(exactly?.dictionary.size, MAX_DICTIONARY);
  assert.equal(encodeDictionary([bytesColumn(many.slice(0, 200)), bytesColumn(many.slice(150))]), null);
  assert.equal(encodeDictionary([bytesColumn(['a', 'b', 'c'])], 2), null);
  assert.equal(encodeDictionary([makeColumn(UTF8, ['a', 'a'], null, 2)]), null, 'JS strings');
  // NULL rows are coded by their (empty) bytes: the codes still decode every valid row.
  const withNulls = ['a', null, 'b', null, 'a'];
  const d = encodeDictionary([bytesColumn(withNulls)])!;
  assert.deepEqual(decode(d), ['a', '', 'b', '', 'a']);
});

test('codes follow slices, gathers and lazy concatenations of coded columns', () => {
  const parts = [rows(600, 4), rows(200, 5), rows(100, 6)];
  const cols = codedParts(parts);
  const slice = sliceColumn(cols[0]!, 40, 340);
  assert.deepEqual(
    Array.from(attachedCodes(slice)!.codes),
    Array.from(attachedCodes(cols[0]!)!.codes.subarray(40, 340)),
  );
  // A slice of fewer than MARKED_SLICE_ROWS rows (a point lookup's) carries no codes: read as bytes.
  const few = sliceColumn(cols[0]!, 40, 40 + MARKED_SLICE_ROWS - 1);
  assert.equal(attachedCodes(few), null);
  assert.deepEqual(strings(few), parts[0]!.slice(40, 40 + MARKED_SLICE_ROWS - 1));
  const whole = concatLazily(cols);
  const coded = textCodesOf(whole);
  assert.ok(coded !== null);
  const values = strings(makeColumn(UTF8, coded.dictionary.values, null, coded.dictionary.size));
  assert.deepEqual(
    Array.from(coded.codes, (k) => values[k]),
    parts.flat(),
  );
  // A part without codes, or coded into another dictionary: none for the whole.
  assert.equal(textCodesOf(concatLazily([cols[0]!, bytesColumn(['a'])])), null);
  assert.equal(textCodesOf(concatLazily([cols[0]!, codedParts([['xay']])[0]!])), null);
  // Rows gathered from a coded column: its codes at those rows (none with padding), and so for their concatenation.
  const picks = [Int32Array.of(2, 1, 2, 299), Int32Array.of(0, 7)];
  const gathered = picks.map((p) => gatherColumns([cols[0]!], p, p.length, false)[0]!);
  const codesOf = (c: Column) => {
    const t = textCodesOf(c)!;
    const v = strings(makeColumn(UTF8, t.dictionary.values, null, t.dictionary.size));
    return Array.from(t.codes, (k) => v[k]);
  };
  assert.deepEqual(
    codesOf(gathered[0]!),
    [2, 1, 2, 299].map((i) => parts[0]![i]),
  );
  assert.deepEqual(
    codesOf(concatLazily(gathered)),
    [2, 1, 2, 299, 0, 7].map((i) => parts[0]![i]),
  );
  const [padded] = gatherColumns([cols[0]!], Int32Array.of(2, -1), 2, true);
  assert.equal(textCodesOf(padded!), null);
});

test('selectUtf8Literals on coded columns equals the byte comparison: IN, NOT IN, prefixes, NULLs, selections', () => {
  const rnd = makeRng(7);
  const values = rows(700, 8).map((v) => (rnd() < 0.1 ? null : v));
  const [coded] = codedParts([values]);
  const plain = bytesColumn(values);
  const sel = Int32Array.from(values.keys()).filter(() => rnd() < 0.4);
  for (const [literals, prefix] of [
    [['MAIL', 'xby'], null],
    [['TAKE BACK RETURN'], null],
    [[''], null],
    [['a'.repeat(71), 'é', 'nothing'], null],
    [[], null],
    [['xa', 'MA'], 2],
    [['a'], 1],
  ] as [string[], number | null][]) {
    for (const negated of [false, true]) {
      for (const some of [null, sel]) {
        const n = some === null ? values.length : some.length;
        const run = (c: Column) => {
          const out = new Int32Array(values.length);
          const k = selectUtf8Literals(c, literals, negated, some?.slice() ?? null, n, out, prefix);
          return [...out.subarray(0, k)];
        };
        const expected = run(plain);
        const passes = (i: number) => {
          const v = values[i];
          if (v === null) return false;
          return literals.includes(prefix === null ? v : v.slice(0, prefix)) !== negated;
        };
        assert.deepEqual(expected, [...(some ?? values.keys())].filter(passes), 'the byte path itself');
        assert.deepEqual(run(coded!), expected, `${literals} negated ${negated} prefix ${prefix} sel ${some !== null}`);
      }
    }
  }
});

test('a peeled expression over a coded column runs once per distinct value, plain or gathered', () => {
  const schema = schemaOf([
    ['s', UTF8],
    ['n', INT32],
  ]);
  const values = rows(400, 9);
  const parts = [values.slice(0, 150), values.slice(150)];
  const cols = codedParts(parts);
  const numbers = makeColumn(INT32, Int32Array.from(values.keys()), null, values.length);
  const like: Expr = {
    kind: 'like',
    expr: col(null, 's', UTF8),
    pattern: lit('%A%', UTF8),
    negated: false,
    caseInsensitive: false,
    escape: '\\',
    type: BOOL,
  } as Expr;
  const seen: number[] = [];
  const plain = compileExpr(like, schema);
  const peeled = peelGather(
    peelableColumn(like, schema, (q, n) => columnIndex(schema, q, n)),
    {
      evaluate(b) {
        seen.push(b.length);
        return plain.evaluate(b);
      },
    },
  );
  const expected = values.map((v) => v.includes('A'));
  const read = (c: Column) => Array.from(c.values as Uint8Array, (x) => x === 1);
  // A batch of the first part's own rows, then rows gathered from both parts concatenated (a build side).
  assert.deepEqual(
    read(peeled.evaluate(batchOf(schema, [cols[0]!, sliceColumn(numbers, 0, 150)]))),
    expected.slice(0, 150),
  );
  const indices = Int32Array.from({ length: 90 }, (_, i) => (i * 97) % 400);
  const gathered = gatherColumns([concatLazily(cols), numbers], indices, 90, false);
  assert.deepEqual(
    read(peeled.evaluate(batchOf(schema, gathered))),
    Array.from(indices, (i) => expected[i]),
  );
  // Both evaluations were over the dictionary's distinct values, once: it is the same dictionary.
  assert.deepEqual(seen, [new Set(values).size]);
  // A coded column with a NULL row is evaluated row by row (its NULL row holds some value's code).
  const [withNull] = codedParts([['MAIL', null, 'xay', 'MAIL']]);
  const b = batchOf(schema, [withNull!, makeColumn(INT32, new Int32Array(4), null, 4)]);
  const out = peeled.evaluate(b);
  assert.deepEqual([out.valid?.[1], read(out)[0], read(out)[3]], [0, true, true]);
  assert.equal(seen.at(-1), 4);
});
