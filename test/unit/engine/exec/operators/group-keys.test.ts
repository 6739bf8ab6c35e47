// `GroupKeys` against a Map of key tuples: dense first-seen ids and the key columns out, for text keys that start
// short (the coded tables: direct slots, pairs past 256 codes, long values later) and for keys that do not; each
// also with the rows read through a selection (a filter's survivors), where dropped rows must make no group.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn, strings, type Utf8Bytes } from '../../../../../engine/arrow/column.js';
import { gatherColumns, textCodesOf } from '../../../../../engine/arrow/gathered-column.js';
import { attachCodes, encodeDictionary } from '../../../../../engine/arrow/text-dictionary.js';
import { GroupKeys } from '../../../../../engine/exec/operators/group-keys.js';
import { INT32, UTF8 } from '../../../../../engine/plan/types.js';
import { makeRng } from '../../../../helpers/gen-data.js';

type Value = string | null;

const encoder = new TextEncoder();

/**
 * Text: even batches as UTF-8 bytes (with an unused row in front, as slices have), odd ones as JS strings. A value
 * `#n` in the last column of a `withNumber` case is the int32 n.
 */
function column(values: readonly Value[], asBytes: boolean): Column {
  const valid = values.includes(null) ? Uint8Array.from(values, (v) => (v === null ? 0 : 1)) : null;
  if (values.some((v) => v?.startsWith('#')))
    return makeColumn(
      INT32,
      Int32Array.from(values, (v) => Number(v?.slice(1) ?? 0)),
      valid,
      values.length,
    );
  if (!asBytes)
    return makeColumn(
      UTF8,
      values.map((v) => v ?? ''),
      valid,
      values.length,
    );
  const parts = ['skip', ...values.map((v) => v ?? '')].map((v) => encoder.encode(v));
  const offsets = new Int32Array(parts.length);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  parts.forEach((p, i) => {
    bytes.set(p, at);
    at += p.length;
    if (i > 0) offsets[i] = at;
  });
  offsets[0] = parts[0]!.length;
  return makeColumn(UTF8, { offsets: offsets.subarray(0), bytes }, valid, values.length);
}

const SHORT = ['', 'A', 'N', 'R', 'é', 'ab', ' ', 'ß', 'OF'];
const LONG = ['abc', '日本', 'ｚ', '🚀', 'hello world', 'é!'];
/** 26 * 26 two-letter values: more codes than a pair's direct range. */
const NUMBERS = Array.from({ length: 400 }, (_, i) => `#${i * 7 - 1000}`);
const MANY = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(97 + (i % 26), 65 + Math.floor(i / 26)));

function generate(
  columns: number,
  batches: number,
  pick: (b: number, c: number, r: () => number) => Value,
): Value[][][] {
  const rng = makeRng(7 + columns * 31 + batches);
  return Array.from({ length: batches }, (_, b) =>
    Array.from({ length: columns }, (_, c) => Array.from({ length: 300 }, () => pick(b, c, rng))),
  );
}

const from = (list: readonly string[], r: () => number, pNull = 0.05): Value =>
  r() < pNull ? null : list[Math.floor(r() * list.length)]!;

const cases: [string, Value[][][]][] = [
  ['one short column', generate(1, 4, (_, __, r) => from(SHORT, r))],
  ['two short columns', generate(2, 4, (_, __, r) => from(SHORT, r))],
  ['two short columns, no NULLs', generate(2, 4, (_, __, r) => from(SHORT, r, 0))],
  [
    'no NULLs, long values after the first batch',
    generate(2, 5, (b, _, r) => from(b < 2 ? SHORT : [...SHORT, ...LONG], r, 0)),
  ],
  [
    'three columns, long values after the first batch',
    generate(3, 5, (b, _, r) => from(b === 0 ? SHORT : [...SHORT, ...LONG], r)),
  ],
  ['three columns, no NULLs', generate(3, 4, (_, __, r) => from([...SHORT, ...LONG], r, 0))],
  ['many distinct short values (wide pairs)', generate(2, 6, (_, c, r) => from(c === 0 ? MANY : SHORT, r, 0.01))],
  ['few values first, many later', generate(2, 6, (b, c, r) => from(b === 0 || c === 1 ? SHORT : MANY, r))],
  ['text and a number', generate(2, 4, (_, c, r) => from(c === 0 ? SHORT : NUMBERS, r))],
  ['long values from the start', generate(2, 3, (_, __, r) => from([...SHORT, ...LONG], r))],
  // With dictionaries, a coded table from the first batch on (its long values coded once each).
  ['long values from the start, no NULLs', generate(2, 4, (_, __, r) => from([...LONG, ...SHORT], r, 0))],
  ['long text and a number, no NULLs', generate(2, 4, (_, c, r) => from(c === 0 ? LONG : NUMBERS, r, 0))],
  ['all NULL', generate(2, 2, () => null)],
];

/** Rows kept by a pretend filter: about two in three, ascending; the dropped ones must never make a group. */
function selection(n: number, seed: number): Int32Array {
  const rng = makeRng(seed);
  return Int32Array.from(Array.from({ length: n }, (_, i) => i).filter(() => rng() < 0.65));
}

/** `col` with a table dictionary's codes attached when it is UTF-8 bytes of at most 256 values (else as it is). */
function withCodes(col: Column): Column {
  const d = col.type.id === 'utf8' ? encodeDictionary([col]) : null;
  if (d !== null) attachCodes(col.values as Utf8Bytes, d.dictionary, d.codes[0]!);
  return col;
}

// Each case also with dictionary codes on its byte batches (even ones; odd ones are JS strings): keys all coded and
// free of NULLs go through one table indexed by code tuples, the rest as before, and the ids must not differ.
for (const [name, batches] of cases) {
  for (const [selected, coded] of [
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ]) {
    const how = `${selected ? ', through a selection' : ''}${coded ? ', with dictionaries' : ''}`;
    test(`GroupKeys: ${name}${how}`, () => {
      const types = batches[0]!.map((values) => (values.some((v) => v?.startsWith('#')) ? INT32 : UTF8));
      const keys = new GroupKeys(types);
      const expected = new Map<string, number>();
      const tuples: Value[][] = [];
      batches.forEach((cols, b) => {
        const columns = cols.map((values) => {
          const c = column(values, b % 2 === 0);
          return coded ? withCodes(c) : c;
        });
        const sel = selected ? selection(cols[0]!.length, b + 1) : null;
        const n = sel === null ? cols[0]!.length : sel.length;
        const ids = keys.assign(columns, n, sel);
        for (let j = 0; j < n; j++) {
          const i = sel === null ? j : sel[j]!;
          const tuple = cols.map((values) => values[i]!);
          const key = JSON.stringify(tuple);
          if (!expected.has(key)) {
            expected.set(key, tuples.length);
            tuples.push(tuple);
          }
          assert.equal(ids[j], expected.get(key), `batch ${b} row ${i} ${key}`);
        }
      });
      assert.equal(keys.size, tuples.length);
      batches[0]!.forEach((_, c) => {
        const out = keys.column(c, types[c]!);
        const values = types[c] === INT32 ? Array.from(out.values as Int32Array, (x) => `#${x}`) : strings(out);
        const text = values.map((s, g) => (out.valid !== null && out.valid[g] === 0 ? null : s));
        assert.deepEqual(
          text,
          tuples.map((t) => t[c]),
        );
      });
    });
  }
}

// Keys gathered from one join build side: the source's rows are coded once, from the second batch on; source rows no
// batch gathers (odd rows here, with values of their own) never become groups; ids stay those of a plain table.
// Text with a table dictionary (an accelerated table's) is coded by its codes, from the first batch on.
// With small numbers only (Q16's brand and type codes and p_size), the source's tuples are numbered through a direct
// table instead of a hash table; a wide number (the cases above it) hashes.
for (const [name, types, pick, coded, small = false] of [
  ['text', [UTF8, UTF8], (r: () => number) => from([...SHORT, ...LONG], r), false],
  ['text and a number', [UTF8, INT32], (r: () => number) => from(SHORT, r), false],
  // Every source row its own key (a build side's primary key, Q13's c_custkey): codes are the rows themselves.
  ['a number distinct on every source row', [INT32], null, false],
  [
    'text with dictionaries (no NULL), and a number',
    [UTF8, UTF8, INT32],
    (r: () => number) => from([...SHORT, ...LONG], r, 0),
    true,
  ],
  [
    'text with dictionaries and a small number (a direct tuple table)',
    [UTF8, INT32, UTF8],
    (r: () => number) => from([...SHORT, ...LONG], r, 0),
    true,
    true,
  ],
] as const) {
  test(`GroupKeys: keys gathered from one source (${name})`, () => {
    const rng = makeRng(99);
    const rows = coded ? 300 : 500;
    const source = types.map((t) =>
      Array.from({ length: rows }, (_, i): Value => {
        // Values no gathered row holds; few of them with `small`, so the tuples stay few.
        if (i % 2 === 1 && small) return t === INT32 ? `#${-3 + (i % 3)}` : `unused ${i % 3}`;
        if (i % 2 === 1) return t === INT32 ? `#${100_000 + i}` : `unused ${i}`;
        if (pick === null) return `#${(i * 7919) % 1000}`;
        return t === INT32 ? `#${Math.floor(rng() * 5)}` : pick(rng);
      }),
    );
    const sourceColumns = source.map((values) => column(values, true));
    if (coded)
      for (const c of sourceColumns) {
        if (c.type.id !== 'utf8') continue;
        const d = encodeDictionary([c])!;
        attachCodes(c.values as Utf8Bytes, d.dictionary, d.codes[0]!);
      }
    const keys = new GroupKeys([...types]);
    const plain = new GroupKeys([...types]);
    const seen = new Set<string>();
    for (let b = 0; b < 8; b++) {
      const indices = Int32Array.from({ length: 200 }, () => 2 * Math.floor(rng() * (rows / 2)));
      const gathered = gatherColumns(sourceColumns, indices, indices.length, false);
      const copies = source.map((values) =>
        column(
          Array.from(indices, (i) => values[i]!),
          false,
        ),
      );
      // Batch 6 is not gathered: groups kept as source rows so far (coded sources, from the first batch) go into a
      // table, with the same ids, and later gathered batches go on from there.
      assert.deepEqual(
        [...keys.assign(b === 6 ? copies : gathered, indices.length)],
        [...plain.assign(copies, indices.length)],
        `batch ${b}`,
      );
      for (const i of indices) seen.add(JSON.stringify(source.map((values) => values[i])));
    }
    assert.equal(keys.size, seen.size, 'only gathered rows make groups');
    if (coded) {
      // Before any batch that is not gathered, the text keys come out by their dictionary codes.
      const early = new GroupKeys([...types]);
      const indices = Int32Array.from({ length: 200 }, (_, i) => 2 * ((i * 37) % (rows / 2)));
      early.assign(gatherColumns(sourceColumns, indices, indices.length, false), indices.length);
      const late = new GroupKeys([...types]);
      late.assign(
        source.map((values) =>
          column(
            Array.from(indices, (i) => values[i]!),
            false,
          ),
        ),
        indices.length,
      );
      types.forEach((t, c) => {
        const out = early.column(c, t);
        const expected = late.column(c, t);
        assert.deepEqual(
          t === INT32 ? [...(out.values as Int32Array)] : strings(out),
          t === INT32 ? [...(expected.values as Int32Array)] : strings(expected),
        );
        if (t === UTF8) assert.ok(textCodesOf(out) !== null, `column ${c}: coded`);
      });
    }
    for (let c = 0; c < types.length; c++) {
      const a = keys.column(c, types[c]!);
      const e = plain.column(c, types[c]!);
      assert.deepEqual(
        types[c] === INT32 ? [...(a.values as Int32Array)] : strings(a),
        types[c] === INT32 ? [...(e.values as Int32Array)] : strings(e),
      );
    }
  });
}

test('GroupKeys: a coded table hands its text keys out with a dictionary of their values, unless one is NULL', () => {
  // Short values: a coded table (`CodedGroupKeys`).
  const values = ['AB', 'N', 'AB', 'é', 'N', ''];
  const keys = new GroupKeys([UTF8]);
  keys.assign([column(values, true)], values.length);
  const out = keys.column(0, UTF8);
  assert.deepEqual(strings(out), ['AB', 'N', 'é', '']);
  const coded = textCodesOf(out);
  assert.ok(coded !== null, 'codes attached');
  const dictionary = strings(makeColumn(UTF8, coded.dictionary.values, null, coded.dictionary.size));
  assert.equal(new Set(dictionary).size, dictionary.length, 'distinct dictionary values');
  assert.deepEqual(
    [...coded.codes].map((c) => dictionary[c]),
    strings(out),
  );
  const withNull = new GroupKeys([UTF8]);
  withNull.assign([column(['A', null, 'B'], true)], 3);
  assert.equal(textCodesOf(withNull.column(0, UTF8)), null, 'a NULL key: no dictionary');
});
