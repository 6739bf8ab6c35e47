// `TextIndex`: words, BM25 sums over words and columns, ties, limits, nulls, and a build dropped when stale.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextIndex, tokenize } from '../../../../server/search/text-index.js';

const build = async (rows: Record<string, unknown>[], columns = ['t']) =>
  (await TextIndex.build(columns, rows)) as TextIndex;

describe('TextIndex', () => {
  it('words are letter and digit runs of any script, lower-cased', () => {
    const cases: [string, string[]][] = [
      ['Hello, World!', ['hello', 'world']],
      ['Zoë café-au-lait 42x', ['zoë', 'café', 'au', 'lait', '42x']],
      ['日本 語', ['日本', '語']],
      ['  ...  ', []],
    ];
    for (const [text, words] of cases) assert.deepEqual(tokenize(text), words, text);
  });

  it('one word: BM25 of its frequency and the row length', async () => {
    const index = await build([{ t: 'a b' }, { t: 'a a b c' }, { t: 'c' }]);
    const [first, second] = index.search('A', 10);
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
    const avg = 7 / 3;
    const bm25 = (tf: number, len: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
    assert.equal(first?.row, 1);
    assert.ok(Math.abs((first?.score ?? 0) - bm25(2, 4)) < 1e-12);
    assert.equal(second?.row, 0);
    assert.ok(Math.abs((second?.score ?? 0) - bm25(1, 2)) < 1e-12);
    assert.equal(index.search('a', 10).length, 2);
  });

  it('sums over the query words and the columns, and names the columns matched', async () => {
    const index = await build(
      [
        { t: 'red', u: 'blue' },
        { t: 'red', u: 'green' },
        { t: 'grey', u: null },
      ],
      ['t', 'u'],
    );
    const hits = index.search('red blue red', 10);
    assert.deepEqual(
      hits.map((h) => [h.row, h.columns]),
      [
        [0, ['t', 'u']],
        [1, ['t']],
      ],
    );
    const alone = index.search('red', 10);
    assert.ok((hits[0]?.score ?? 0) > (alone[0]?.score ?? 0));
    // Scores are reset between searches.
    assert.equal(index.search('red', 10)[0]?.score, alone[0]?.score);
  });

  it('equal scores keep row order; limit keeps the best', async () => {
    const index = await build([{ t: 'x y' }, { t: 'x' }, { t: 'x y' }, { t: 'x y' }]);
    assert.deepEqual(
      index.search('x', 10).map((h) => h.row),
      [1, 0, 2, 3],
    );
    assert.deepEqual(
      index.search('x', 2).map((h) => h.row),
      [1, 0],
    );
    assert.deepEqual(index.search('nothing', 5), []);
    assert.deepEqual(index.search('', 5), []);
  });

  it('null, empty and non-string values; an empty table', async () => {
    const index = await build([{ t: null }, { t: '' }, { t: 42 }, {}]);
    assert.deepEqual(
      index.search('42', 5).map((h) => h.row),
      [2],
    );
    assert.deepEqual((await build([])).search('a', 5), []);
  });

  it('a stale build is dropped', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => ({ t: `w${i}` }));
    let steps = 0;
    assert.equal(await TextIndex.build(['t'], rows, () => ++steps > 1), null);
  });
});
