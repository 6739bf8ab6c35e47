// Both hash tables behind `makeKeyIndex`: dense first-seen ids, collisions and growth, NULL keys, Float64- against
// BigInt64-backed int64 keys, UTF-8 bytes against JS strings, several key columns, and the key columns out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn, strings } from '../../../../../engine/arrow/column.js';
import { InternalError } from '../../../../../engine/errors.js';
import { hashKeys } from '../../../../../engine/exec/hash/hash-keys.js';
import { toKeyColumn } from '../../../../../engine/exec/hash/key-column.js';
import { type KeyIndex, makeKeyIndex } from '../../../../../engine/exec/hash/key-index.js';
import { KeyTable } from '../../../../../engine/exec/hash/key-table.js';
import { NumberKeyTable } from '../../../../../engine/exec/hash/number-key-table.js';
import { BOOL, DATE, type DataType, FLOAT64, INT32, INT64, NULL, UTF8 } from '../../../../../engine/plan/types.js';

const validity = (values: readonly unknown[]) => Uint8Array.from(values, (v) => (v === null ? 0 : 1));
const ints = (values: (number | null)[], type: DataType = INT32): Column =>
  makeColumn(
    type,
    Int32Array.from(values, (v) => v ?? 0),
    validity(values),
    values.length,
  );
const floats = (values: (number | null)[], type: DataType = FLOAT64): Column =>
  makeColumn(
    type,
    Float64Array.from(values, (v) => v ?? 0),
    validity(values),
    values.length,
  );
const bigs = (values: (bigint | null)[]): Column =>
  makeColumn(
    INT64,
    BigInt64Array.from(values, (v) => v ?? 0n),
    validity(values),
    values.length,
  );
const texts = (values: (string | null)[]): Column =>
  makeColumn(
    UTF8,
    values.map((v) => v ?? ''),
    validity(values),
    values.length,
  );
/** A utf8 column over UTF-8 bytes (as Parquet decoding makes them), with one unused row in front. */
const utf8Bytes = (values: (string | null)[]): Column => {
  const encoder = new TextEncoder();
  const parts = ['skipped', ...values.map((v) => v ?? '')].map((v) => encoder.encode(v));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => {
    offsets[i + 1] = offsets[i]! + p.length;
  });
  const bytes = new Uint8Array(offsets[parts.length]!);
  for (const [i, p] of parts.entries()) bytes.set(p, offsets[i]!);
  return makeColumn(UTF8, { offsets: offsets.subarray(1), bytes }, validity(values), values.length);
};

const insert = (t: KeyIndex, ...cols: Column[]) => [...t.insert(cols, cols[0]!.length)];
const find = (t: KeyIndex, ...cols: Column[]) => [...t.find(cols, cols[0]!.length)];

/** One table of each implementation for one key column of `type`. */
const tablesFor = (type: DataType, nullsEqual: boolean): [string, KeyIndex][] => [
  ['number', new NumberKeyTable(nullsEqual)],
  ['general', new KeyTable([type], nullsEqual)],
];

test('makeKeyIndex: one numeric key gets the number table, text or several keys the general one', () => {
  assert.ok(makeKeyIndex([INT32], true) instanceof NumberKeyTable);
  assert.ok(makeKeyIndex([DATE], false) instanceof NumberKeyTable);
  assert.ok(makeKeyIndex([UTF8], true) instanceof KeyTable);
  assert.ok(makeKeyIndex([INT32, INT32], true) instanceof KeyTable);
});

for (const [name, t] of tablesFor(INT32, true)) {
  test(`${name}: ids are dense in first-seen order; NULL is one key when NULLs are keys`, () => {
    assert.deepEqual(insert(t, ints([7, null, 3, 7, null, 12, 3])), [0, 1, 2, 0, 1, 3, 2]);
    assert.deepEqual(find(t, ints([12, 5, null, 7])), [3, -1, 1, 0]);
    assert.equal(t.size, 4);
    const keys = t.column(0, INT32);
    assert.ok(keys.values instanceof Int32Array);
    assert.deepEqual([...(keys.values as Int32Array)], [7, 0, 3, 12]);
    assert.deepEqual([...keys.valid!], [1, 0, 1, 1]);
  });
}

for (const [name, t] of tablesFor(INT32, false)) {
  test(`${name}: NULL keys never match when NULLs are not keys`, () => {
    assert.deepEqual(insert(t, ints([null, 1, null])), [-1, 0, -1]);
    assert.deepEqual(find(t, ints([null, 1])), [-1, 0]);
    assert.equal(t.size, 1);
  });
}

for (const [name, t] of tablesFor(INT64, true)) {
  test(`${name}: grows past many slot collisions and keeps every id`, () => {
    // Keys a multiple of 2^20 apart share their low bits; 100k keys force a dozen doublings.
    const n = 100_000;
    const keys = Float64Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i * 2 ** 20 : -i));
    const col = makeColumn(INT64, keys, null, n);
    for (let start = 0; start < n; start += 10_000) {
      const ids = t.insert([makeColumn(INT64, keys.subarray(start, start + 10_000), null, 10_000)], 10_000);
      for (let i = 0; i < 10_000; i++) assert.equal(ids[i], start + i);
    }
    assert.equal(t.size, n);
    const again = t.find([col], n);
    for (let i = 0; i < n; i++) assert.equal(again[i], i);
    assert.deepEqual([...(t.column(0, INT64).values as Float64Array)], [...keys]);
  });
}

for (const [name, t] of tablesFor(INT64, false)) {
  test(`${name}: int64 keys backed by Float64 and by BigInt64 meet; values beyond 2^53 only meet bigints`, () => {
    const big = 2n ** 60n;
    assert.deepEqual(insert(t, floats([1, 2 ** 53 - 1, -5, 0], INT64)), [0, 1, 2, 3]);
    assert.deepEqual(insert(t, bigs([-5n, big, 2n ** 53n - 1n, null, big])), [2, 4, 1, -1, 4]);
    assert.deepEqual(find(t, bigs([1n, big, -big, 0n])), [0, 4, -1, 3]);
    // Columns hold values beyond 2^53 as bigints; a double beyond it is exact, and the general table keys int64
    // values as their 64 bits (equal to the bigint), the number table keys bigints apart (equal to no double).
    assert.deepEqual(find(t, floats([2 ** 60, -5], INT64)), [name === 'general' ? 4 : -1, 2]);
    const out = t.column(0, INT64);
    assert.ok(out.values instanceof BigInt64Array);
    assert.deepEqual([...(out.values as BigInt64Array)], [1n, 2n ** 53n - 1n, -5n, 0n, big]);
  });
}

for (const [name, t] of tablesFor(FLOAT64, true)) {
  test(`${name}: 0 and -0 are one key, NaN is one key, fractions differ`, () => {
    assert.deepEqual(insert(t, floats([0, -0, Number.NaN, 0.5, Number.NaN, 0.25, 1e300])), [0, 0, 1, 2, 1, 3, 4]);
    assert.deepEqual(find(t, floats([-0, Number.NaN, 0.5000001, 1e300])), [0, 1, -1, 4]);
  });
}

test('bool keys come back as a bool column', () => {
  const t = makeKeyIndex([BOOL], true);
  const col = makeColumn(BOOL, Uint8Array.of(1, 0, 1, 0), Uint8Array.of(1, 1, 1, 0), 4);
  assert.deepEqual(insert(t, col), [0, 1, 0, 2]);
  const out = t.column(0, BOOL);
  assert.deepEqual([...(out.values as Uint8Array)], [1, 0, 0]);
  assert.deepEqual([...out.valid!], [1, 1, 0]);
});

test('text: UTF-8 bytes and JS strings of the same text hash and compare equal (ASCII and not)', () => {
  const words = ['MAIL', 'héllo', '', '日本語', 'a\u0001b', '😀 emoji', 'lone \ud800 surrogate', null];
  const asStrings = texts(words);
  const asBytes = utf8Bytes(words);
  assert.deepEqual([...hashKeys([toKeyColumn(asStrings, 8)], 8)], [...hashKeys([toKeyColumn(asBytes, 8)], 8)]);
  const ids = [0, 1, 2, 3, 4, 5, 6, 7];
  for (const [first, second] of [
    [asStrings, asBytes],
    [asBytes, asStrings],
  ]) {
    const t = makeKeyIndex([UTF8], true);
    assert.deepEqual(insert(t, first!), ids);
    assert.deepEqual(insert(t, second!), ids);
    assert.deepEqual(find(t, texts(['hello', 'héllo', 'MAIL ', '日本語', '日本', 'héllo!'])), [-1, 1, -1, 3, -1, -1]);
    assert.deepEqual(
      find(t, utf8Bytes(['hello', 'héllo', 'MAIL ', '日本語', '日本', 'héllo!'])),
      [-1, 1, -1, 3, -1, -1],
    );
    const out = t.column(0, UTF8);
    assert.ok(!Array.isArray(out.values), 'keys come back as UTF-8 bytes');
    assert.deepEqual(strings(out).slice(0, 6), words.slice(0, 6));
    assert.deepEqual([...out.valid!], [1, 1, 1, 1, 1, 1, 1, 0]);
  }
});

test('text: bytes of a sliced column (offsets not starting at 0) still match', () => {
  const bytes = utf8Bytes(['skip', 'x', 'yz']);
  const v = bytes.values as { offsets: Int32Array; bytes: Uint8Array };
  const sliced = makeColumn(UTF8, { offsets: v.offsets.subarray(1), bytes: v.bytes }, null, 2);
  const t = makeKeyIndex([UTF8], false);
  assert.deepEqual(insert(t, texts(['yz', 'x'])), [0, 1]);
  assert.deepEqual(find(t, sliced), [1, 0]);
});

test('full 32-bit hash collisions between different texts still give different ids', () => {
  const seen = new Map<number, string>();
  let pair: [string, string] | null = null;
  for (let i = 0; pair === null; i++) {
    const s = `k${i}`;
    const h = hashKeys([toKeyColumn(texts([s]), 1)], 1)[0]!;
    const other = seen.get(h);
    if (other !== undefined) pair = [other, s];
    seen.set(h, s);
  }
  const t = makeKeyIndex([UTF8], true);
  assert.deepEqual(insert(t, texts([pair[0], pair[1], pair[0]])), [0, 1, 0]);
  assert.deepEqual(find(t, utf8Bytes([pair[1], pair[0]])), [1, 0]);
});

test('several key columns with int64 parts: doubles and bigints of one value meet; misses in row order', () => {
  const g = makeKeyIndex([INT64, UTF8], true);
  const big = 2n ** 62n + 1n;
  const a = makeColumn(INT64, BigInt64Array.of(big, -1n, big, 0n, big), Uint8Array.of(1, 1, 1, 0, 1), 5);
  assert.deepEqual(insert(g, a, texts(['x', 'x', 'x', 'x', 'y'])), [0, 1, 0, 2, 3]);
  assert.deepEqual(insert(g, floats([-1, null, 7], INT64), texts(['x', 'x', 'x'])), [1, 2, 4]);
  assert.deepEqual(find(g, bigs([big, big, 7n]), texts(['y', 'z', 'x'])), [3, -1, 4]);
  assert.deepEqual([...(g.column(0, INT64).values as BigInt64Array)], [big, -1n, 0n, big, 7n]);
  assert.deepEqual([...g.column(0, INT64).valid!], [1, 1, 0, 1, 1]);
  assert.throws(() => insert(g, floats([0.5], FLOAT64), texts(['x'])), InternalError);
  assert.deepEqual(find(g, floats([0.5, 7], FLOAT64), texts(['x', 'x'])), [-1, 4]);
});

test('several key columns: full-hash collisions met in a later round keep first-seen ids', () => {
  // Texts of one 32-bit hash force candidates that differ; rows after them are new keys of their own.
  const seen = new Map<number, string>();
  const pairs: [string, string][] = [];
  for (let i = 0; pairs.length < 20; i++) {
    const s = `k${i}`;
    const h = hashKeys([toKeyColumn(texts([s]), 1), toKeyColumn(ints([1]), 1)], 1)[0]!;
    const other = seen.get(h);
    if (other !== undefined) pairs.push([other, s]);
    seen.set(h, s);
  }
  const t = makeKeyIndex([UTF8, INT32], true);
  const first = pairs.map((p) => p[0]);
  insert(t, texts(first), ints(first.map(() => 1)));
  const rows = pairs.flatMap((p, i) => [p[1], `fresh${i}`, p[0]]);
  const ids = insert(t, texts(rows), ints(rows.map(() => 1)));
  assert.deepEqual(
    ids,
    pairs.flatMap((_, i) => [20 + 2 * i, 21 + 2 * i, i]),
  );
});

test('several key columns: a tuple is one key, NULL parts included (GROUP BY) or never matching (joins)', () => {
  const g = makeKeyIndex([INT32, UTF8, FLOAT64], true);
  const a = ints([1, 1, 2, 1, null, null]);
  const b = texts(['x', 'y', 'x', 'x', 'x', 'x']);
  const c = floats([0.5, 0.5, 0.5, 0.5, null, null]);
  assert.deepEqual(insert(g, a, b, c), [0, 1, 2, 0, 3, 3]);
  assert.deepEqual(find(g, ints([1, 2, 1]), utf8Bytes(['y', 'x', 'z']), floats([0.5, 0.5, 0.5])), [1, 2, -1]);
  assert.deepEqual([...(g.column(0, INT32).values as Int32Array)], [1, 1, 2, 0]);
  assert.deepEqual(strings(g.column(1, UTF8)), ['x', 'y', 'x', 'x']);

  const j = makeKeyIndex([INT32, UTF8], false);
  assert.deepEqual(insert(j, ints([1, null, 1]), texts(['x', 'x', null])), [0, -1, -1]);
  assert.deepEqual(find(j, ints([1, 1]), utf8Bytes(['x', null])), [0, -1]);
});

test('a NULL literal key meets a typed key; a real kind mismatch is an internal error where NULLs are keys', () => {
  const nulls = makeColumn(NULL, null, new Uint8Array(2), 2);
  const g = makeKeyIndex([UTF8], true);
  assert.deepEqual(insert(g, nulls), [0, 0]);
  assert.deepEqual(insert(g, texts([null, 'a'])), [0, 1]);
  assert.throws(() => insert(g, ints([1])), InternalError);
  const j = makeKeyIndex([UTF8], false);
  assert.deepEqual(insert(j, texts(['1'])), [0]);
  assert.deepEqual(find(j, ints([1])), [-1]);
});

for (const [name, t] of [
  ...tablesFor(INT32, false),
  ['general, two keys', makeKeyIndex([INT32, INT32], false)] as const,
]) {
  test(`${name}: reserve sizes the table once; inserting past it still grows`, () => {
    const keys = ints(Array.from({ length: 5000 }, (_, i) => i * 3));
    const cols = name.includes('two') ? [keys, keys] : [keys];
    t.reserve(1000);
    const ids = t.insert(cols, 5000);
    for (let i = 0; i < 5000; i++) assert.equal(ids[i], i);
    t.reserve(5000);
    assert.deepEqual([...t.find(cols, 5000)], [...ids]);
  });
}

/** Inserts `batches` one by one into a fresh number table; returns it and the ids of every row. */
const insertBatches = (batches: Column[], nullsEqual = true) => {
  const t = new NumberKeyTable(nullsEqual);
  const ids = batches.flatMap((b) => [...t.insert([b], b.length)]);
  return { t, ids };
};
/** The ids a correct table gives: dense in first-seen order (every NULL one key, NaN one key, -0 = 0). */
const expectedIds = (values: readonly (number | null)[]) => {
  const seen = new Map<string, number>();
  return values.map((v) => {
    const k = v === null ? 'null' : Object.is(v, -0) ? '0' : String(v);
    if (!seen.has(k)) seen.set(k, seen.size);
    return seen.get(k)!;
  });
};

for (const [name, batches] of [
  [
    'dense ints (direct array)',
    [
      [5, 3, 5, 9, null, 4],
      [2, 9, 100, 3],
    ],
  ],
  [
    'negative and zero keys',
    [
      [-3, 0, -70000, 7],
      [-3, -70000, 12],
    ],
  ],
  [
    'integers beyond int32',
    [
      [2 ** 40, 2 ** 40 + 7, 2 ** 40],
      [2 ** 40 - 5, 2 ** 52],
    ],
  ],
  [
    'a fraction moves the table to hashing mid-stream',
    [
      [1, 2, 3],
      [2, 0.5, 3, -0, 0],
      [0.5, 1],
    ],
  ],
  [
    'NaN and -0 after dense keys',
    [
      [1, 2],
      [Number.NaN, -0, 0, Number.NaN, 2],
    ],
  ],
  [
    'a range too wide for a direct array',
    [
      [1, 2],
      [1e12, 2, 1],
    ],
  ],
] as const) {
  test(`number table (${name}): dense first-seen ids, found again after`, () => {
    const cols = batches.map((b) => floats([...b], INT64));
    const { t, ids } = insertBatches(cols);
    const all = batches.flat();
    assert.deepEqual(ids, expectedIds(all));
    const everything = floats([...all], INT64);
    assert.deepEqual(find(t, everything), expectedIds(all));
    assert.deepEqual(find(t, floats([1.25, -1, 2 ** 53, 1e15])), [-1, -1, -1, -1]);
  });
}

test('number table: hashed keys that fill their range at a doubling move to a direct array and stay found', () => {
  // The first batch spans too wide a range for its size; once enough keys arrive they fill it.
  const n = 200_000;
  const keys = Array.from({ length: n }, (_, i) => (i * 7919) % n);
  const batches = [];
  for (let s = 0; s < n; s += 8192) batches.push(ints(keys.slice(s, s + 8192)));
  const { t, ids } = insertBatches([ints([0, n - 1, null]), ...batches], false);
  assert.deepEqual(ids, [0, 1, -1, ...expectedIds([0, n - 1, ...keys]).slice(2)]);
  assert.equal(t.size, n);
  assert.deepEqual(find(t, ints([n - 1, n, -1, null, 5])), [
    1,
    -1,
    -1,
    -1,
    expectedIds([0, n - 1, ...keys])[keys.indexOf(5) + 2],
  ]);
  const out = t.column(0, INT32).values as Int32Array;
  for (let id = 0; id < 100; id++) assert.equal(ids[[0, n - 1, null, ...keys].indexOf(out[id]!)], id);
});

test('number table: room reserved while direct is taken when keys stop fitting a direct array', {
  timeout: 20_000,
}, () => {
  // A join build: a dense first batch (direct), room reserved for the rest, then keys spread too wide.
  const t = new NumberKeyTable(false);
  const first = Array.from({ length: 1000 }, (_, i) => i);
  const firstIds = [...t.insert([ints(first)], first.length)];
  t.reserve(60_000);
  const spread = Array.from({ length: 50_000 }, (_, i) => (i * 7919 + 1) * 4096);
  const batches = [];
  for (let s = 0; s < spread.length; s += 8192) batches.push(spread.slice(s, s + 8192));
  const ids = [...firstIds, ...batches.flatMap((b) => [...t.insert([floats(b, INT64)], b.length)])];
  assert.deepEqual(ids, expectedIds([...first, ...spread]));
  assert.deepEqual(find(t, floats([999, 4096 * 7920, 4096 * (7919 * 49_999 + 1), 1000, 4095], INT64)), [
    999,
    1001,
    ids[ids.length - 1],
    -1,
    -1,
  ]);
});

test('number table: a build of known size (expectRows) keeps ids and misses right over a sparse first batch', () => {
  // q10's shape: rows of customer keys in 1..150k, the first batch of 1.2k already spanning the range: direct from
  // the first batch with the hint, hashed until a doubling finds the keys dense enough without it. Either way every
  // id and every miss is the same.
  const rows = 30_000;
  const keys = Array.from({ length: rows }, (_, i) => 1 + ((i * 7919) % 150_000));
  const run = (hint: boolean) => {
    const t = new NumberKeyTable(false);
    if (hint) t.expectRows(rows);
    const ids: number[] = [];
    for (let s = 0; s < rows; s += 1200) {
      const b = keys.slice(s, s + 1200);
      t.reserve(b.length);
      ids.push(...t.insert([ints(b)], b.length));
    }
    return { ids, found: find(t, ints([keys[0]!, keys[rows - 1]!, 0, 150_001, 2, null])), size: t.size };
  };
  const hinted = run(true);
  assert.deepEqual(hinted.ids, expectedIds(keys));
  assert.deepEqual(hinted, run(false));
  assert.deepEqual(hinted.found.slice(2), [-1, -1, keys.includes(2) ? hinted.ids[keys.indexOf(2)] : -1, -1]);
});

test('number table: int64 beyond 2^53 next to dense keys', () => {
  const t = new NumberKeyTable(true);
  assert.deepEqual(insert(t, ints([4, 5, 4])), [0, 1, 0]);
  assert.deepEqual(insert(t, bigs([2n ** 60n, 5n, null, 2n ** 60n])), [2, 1, 3, 2]);
  assert.deepEqual(insert(t, ints([6, 4])), [4, 0]);
  assert.deepEqual(find(t, bigs([2n ** 60n, 6n, 7n, null])), [2, 4, -1, 3]);
});
