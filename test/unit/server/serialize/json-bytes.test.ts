// The byte-level JSON row writer gives exactly the text of the reference string writer (cellText per value,
// JSON.stringify for text), for every kind of value.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sliceBatch } from '../../../../engine/arrow/batch.js';
import { type Column, makeColumn } from '../../../../engine/arrow/column.js';
import { take } from '../../../../engine/arrow/kernels/take.js';
import type { Batch, DataType, Schema } from '../../../../engine/index.js';
import { isWellFormedUtf8, makeJsonRowBytes } from '../../../../server/serialize/json-bytes.js';
import { BOOL, batchOf, column, DATE, FLOAT64, INT32, MONEY, schemaOf, UTF8 } from '../../../helpers/batches.js';
import { makeRowWriter } from '../../../helpers/json-row-reference.js';

/**
 * Both writers' output for a batch, byte for byte (as latin1 strings, so malformed UTF-8 cannot hide behind a
 * decoder's replacement characters); the string writer's rows joined as the byte writer joins them.
 */
function both(batch: Batch, comma = false): [string, string] {
  const bytes = Buffer.from(makeJsonRowBytes(batch.schema)(batch, comma)).toString('latin1');
  const rows = makeRowWriter(batch.schema)(batch).join(',');
  return [bytes, Buffer.from((comma && rows !== '' ? ',' : '') + rows, 'utf8').toString('latin1')];
}

/** A utf8 column held as UTF-8 bytes (not JS strings), NULL where `parts` has null. */
function bytesColumn(parts: readonly (Uint8Array | null)[]): Column {
  const offsets = new Int32Array(parts.length + 1);
  for (const [i, p] of parts.entries()) offsets[i + 1] = offsets[i]! + (p?.length ?? 0);
  const bytes = new Uint8Array(offsets[parts.length]!);
  for (const [i, p] of parts.entries()) if (p !== null) bytes.set(p, offsets[i]!);
  const valid = parts.includes(null) ? Uint8Array.from(parts, (p) => (p === null ? 0 : 1)) : null;
  return makeColumn(UTF8, { offsets, bytes }, valid, parts.length);
}

const enc = (s: string) => new TextEncoder().encode(s);
const TEXTS = [
  'plain',
  '',
  'a "quoted" \\ word',
  'back\\slash',
  'tab\there\nnewline\r\u0001',
  'Zoë',
  '日本 🚀',
  '\u2028\u2029 \u007f',
  'x',
];
const MALFORMED = [
  Uint8Array.of(0x61, 0xff, 0x62),
  Uint8Array.of(0xc0, 0xaf),
  Uint8Array.of(0xe0, 0x80, 0xaf),
  Uint8Array.of(0xed, 0xa0, 0x80),
  Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
  Uint8Array.of(0xe6, 0x97),
  Uint8Array.of(0x22, 0xc3),
];

test('text as bytes, as strings, escaped, non-ASCII and malformed: the same as the string writer', () => {
  const schema = schemaOf([
    ['b', UTF8],
    ['s', UTF8],
  ]);
  const parts = [...TEXTS.map(enc), ...MALFORMED, null];
  const strs = [...TEXTS, ...MALFORMED.map((m) => new TextDecoder().decode(m)), null];
  const batch = batchOf(schema, [bytesColumn(parts), column(UTF8, strs)]);
  const [bytes, strings] = both(batch);
  assert.equal(bytes, strings);
  // Valid JSON whose values are the decoded strings.
  assert.deepEqual(
    JSON.parse(`[${Buffer.from(bytes, 'latin1').toString('utf8')}]`).map((r: { b: string | null }) => r.b),
    strs,
  );
  // Slices (offsets not from 0), rows picked by index, and a leading comma.
  const sliced = sliceBatch(batch, 3, 11);
  assert.deepEqual(...both(sliced, true));
  const picked = batchOf(schema, [
    take(batch.columns[0]!, Int32Array.of(10, 2, 5)),
    take(batch.columns[1]!, Int32Array.of(10, 2, 5)),
  ]);
  assert.deepEqual(...both(picked));
});

test('numbers, decimals, non-finite floats, dates, booleans and NULLs: the same as the string writer', () => {
  const int64: DataType = { id: 'int64' };
  const schema = schemaOf([
    ['i', INT32],
    ['big', int64],
    ['m', MONEY],
    ['f', FLOAT64],
    ['d', DATE],
    ['ok', BOOL],
    ['weird name "x"', INT32],
  ]);
  const batch = batchOf(schema, [
    column(INT32, [0, -2147483648, 2147483647, null, 7]),
    makeColumn(int64, BigInt64Array.of(0n, -(2n ** 63n), 2n ** 63n - 1n, 5n, 9007199254740993n), null, 5),
    column(MONEY, [1250, -305, null, 0, 123456789]),
    column(FLOAT64, [1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0]),
    column(DATE, [0, -1, null, 19_000, 2_932_896]),
    column(BOOL, [true, false, null, true, false]),
    column(INT32, [1, 2, 3, 4, 5]),
  ]);
  const [bytes, strings] = both(batch);
  assert.equal(bytes, strings);
  assert.equal(JSON.parse(`[${bytes}]`)[1].f, 'NaN');
  assert.ok(bytes.includes('"big":9223372036854775807'));
});

test('integers past int32 and decimals of every scale, held as doubles: the same as the string writer', () => {
  const dec = (scale: number): DataType => ({ id: 'decimal', precision: 38, scale });
  const int64: DataType = { id: 'int64' };
  const big = [2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31, -(2 ** 31) - 1, 1e15 + 7, 0, -0, 1e9, 999_999_999, -5];
  const schema = schemaOf([
    ['i', int64],
    ['d0', dec(0)],
    ['d2', dec(2)],
    ['d9', dec(9)],
    ['d12', dec(12)],
    ['d18', dec(18)],
  ]);
  const n = big.length;
  const cols = schema.fields.map((f) => makeColumn(f.type, Float64Array.from(big), null, n));
  const [bytes, strings] = both(batchOf(schema, cols));
  assert.equal(bytes, strings);
  assert.ok(bytes.includes('"d12":-9007.199254740991'), bytes);
});

test('no columns, no rows, and a batch larger than the scratch buffer', () => {
  const none: Schema = { fields: [] };
  assert.deepEqual(both({ schema: none, columns: [], length: 3 }), ['{},{},{}', '{},{},{}']);
  const schema = schemaOf([['s', UTF8]]);
  assert.deepEqual(both(batchOf(schema, [column(UTF8, [])])), ['', '']);
  const long = 'é'.repeat(100_000);
  const big = batchOf(schema, [bytesColumn([enc(long), enc('x'.repeat(70_000)), null])]);
  assert.deepEqual(...both(big));
});

test('isWellFormedUtf8 agrees with a fatal TextDecoder', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const decodes = (b: Uint8Array) => {
    try {
      fatal.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  const interesting = [
    0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x9f, 0xa0, 0x8f,
    0x90,
  ];
  for (let k = 0; k < 20_000; k++) {
    const b = Uint8Array.from({ length: 1 + (next() % 5) }, () =>
      next() % 3 === 0 ? next() & 0xff : interesting[next() % interesting.length]!,
    );
    assert.equal(isWellFormedUtf8(b, 0, b.length), decodes(b), `bytes ${[...b].map((x) => x.toString(16))}`);
  }
  for (const s of TEXTS) assert.equal(isWellFormedUtf8(enc(s), 0, enc(s).length), true);
});
