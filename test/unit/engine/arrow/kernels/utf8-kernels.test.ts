// The UTF-8 byte kernels against their string counterparts on random text (ASCII, multi-byte, astral, LIKE
// metacharacters): LIKE/ILIKE patterns, ordering comparisons, and gathering/appending rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn, strings, type Utf8Bytes } from '../../../../../engine/arrow/column.js';
import { concatColumns, take } from '../../../../../engine/arrow/kernels/take.js';
import { takeOrNull } from '../../../../../engine/arrow/kernels/take-or-null.js';
import { compareText } from '../../../../../engine/arrow/kernels/text-order.js';
import { compareUtf8Columns, compareUtf8Literal } from '../../../../../engine/arrow/kernels/utf8-compare.js';
import { compileUtf8Like } from '../../../../../engine/arrow/kernels/utf8-like.js';
import { copyBytes } from '../../../../../engine/arrow/kernels/utf8-take.js';
import { likeMatcher } from '../../../../../engine/exec/expr/like.js';
import { utf8Bytes } from '../../../../helpers/batches.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const UTF8 = { id: 'utf8' } as const;
const ALPHABET = ['a', 'b', 'A', 'B', 'c', ' ', '_', '%', '\\', '!', 'é', 'É', '本', '😀', 'ｚ', 'ß', 'K'];
const rng = makeRng(7);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const word = (max: number) => Array.from({ length: Math.floor(rng() * (max + 1)) }, () => pick(ALPHABET)).join('');

const column = (rows: readonly string[], valid: Uint8Array | null = null): Column =>
  makeColumn(UTF8, utf8Bytes(rows), valid, rows.length);

const ROWS = Array.from({ length: 400 }, () => word(8));

test('LIKE and ILIKE on bytes agree with the string matcher on random patterns', () => {
  const v = utf8Bytes(ROWS);
  let compiled = 0;
  for (let t = 0; t < 600; t++) {
    const pattern = Array.from({ length: Math.floor(rng() * 6) }, () =>
      pick(['%', '_', 'a', 'b', 'A', 'é', '本', '😀', '\\%', '\\_', 'ab', '%a%']),
    ).join('');
    const ci = rng() < 0.4;
    const esc = pick(['\\', '', '!']);
    const m = likeMatcher(pattern, ci, esc);
    const onBytes = compileUtf8Like(pattern, ci, esc, m);
    if (onBytes === null) {
      assert.ok(ci, `only ILIKE with a non-ASCII pattern has no byte matcher: ${pattern}`);
      continue;
    }
    compiled++;
    const got = onBytes(v, ROWS.length);
    ROWS.forEach((r, i) => {
      assert.equal(
        got[i] === 1,
        m(r),
        `${JSON.stringify(r)} ${ci ? 'ILIKE' : 'LIKE'} ${JSON.stringify(pattern)} [${esc}]`,
      );
    });
  }
  assert.ok(compiled > 400);
});

test('comparisons on bytes give code point order (compareText)', () => {
  const v = utf8Bytes(ROWS);
  const other = ROWS.map(() => word(5));
  const w = utf8Bytes(other);
  const ops = ['=', '<>', '<', '<=', '>', '>='] as const;
  const holds = (op: (typeof ops)[number], c: number) =>
    ({ '=': c === 0, '<>': c !== 0, '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0 })[op];
  for (const op of ops) {
    for (const lit of ['', 'a', 'b', 'é', 'ｚ', '😀', 'aé', 'K']) {
      const got = compareUtf8Literal(op, v, ROWS.length, lit)!;
      for (const [i, r] of ROWS.entries())
        assert.equal(got[i] === 1, holds(op, compareText(r, lit)), `${r} ${op} ${lit}`);
    }
    const pairs = compareUtf8Columns(op, v, w, ROWS.length);
    for (const [i, r] of ROWS.entries()) {
      assert.equal(pairs[i] === 1, holds(op, compareText(r, other[i]!)), `${r} ${op} ${other[i]}`);
    }
  }
  assert.equal(compareUtf8Literal('<', v, ROWS.length, 'a\ud800'), null, 'a lone surrogate has no UTF-8 form');
});

test('take, takeOrNull and concatColumns gather bytes without decoding', () => {
  const rows = ['', 'a', 'é日本', '😀😀', 'a somewhat longer string of ascii text', 'x'];
  const valid = Uint8Array.from([1, 1, 1, 1, 1, 0]);
  const col = column(rows, valid);
  const idx = Int32Array.from([4, 2, 2, 0, 5, 3]);
  const t = take(col, idx);
  assert.ok(!Array.isArray(t.values), 'take keeps UTF-8 bytes');
  assert.deepEqual(strings(t), ['a somewhat longer string of ascii text', 'é日本', 'é日本', '', 'x', '😀😀']);
  assert.deepEqual([...t.valid!], [1, 1, 1, 1, 0, 1]);
  const padded = takeOrNull(col, Int32Array.from([-1, 3, 1, -1]));
  assert.deepEqual(strings(padded), ['', '😀😀', 'a', '']);
  assert.deepEqual([...padded.valid!], [0, 1, 1, 0]);
  // A slice (offsets not starting at 0) and a plain column appended after it.
  const bytes = col.values as Utf8Bytes;
  const slice = makeColumn(UTF8, { offsets: bytes.offsets.subarray(2, 5), bytes: bytes.bytes }, null, 2);
  const joined = concatColumns([slice, column(['z', 'ß'])]);
  assert.ok(!Array.isArray(joined.values), 'concatColumns keeps UTF-8 bytes');
  assert.deepEqual(strings(joined), ['é日本', '😀😀', 'z', 'ß']);
  const mixed = concatColumns([slice, makeColumn(UTF8, ['q'], null, 1)]);
  assert.deepEqual(strings(mixed), ['é日本', '😀😀', 'q']);
});

test('copyBytes copies every length (four bytes a step, the rest one by one, long runs with set) and nothing else', () => {
  const src = Uint8Array.from({ length: 64 }, (_, i) => i + 1);
  for (let len = 0; len <= 40; len++) {
    for (const from of [0, 1, 3, 5]) {
      for (const at of [0, 2, 7]) {
        const dst = new Uint8Array(64);
        copyBytes(dst, at, src, from, from + len);
        const want = new Uint8Array(64);
        want.set(src.subarray(from, from + len), at);
        assert.deepEqual(dst, want, `len ${len} from ${from} at ${at}`);
      }
    }
  }
});
