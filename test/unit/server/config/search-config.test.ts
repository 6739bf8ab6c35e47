// A dataset's `full_text_search` columns in the manifest: the indexed columns, the row id, and each problem by key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest } from '../../../../server/config/manifest.js';
import { MANIFEST_BASE, manifestProblem } from '../../../helpers/manifest-runtime.js';

function load(dataset: object) {
  const m = parseManifest({ ...MANIFEST_BASE, datasets: [{ from: 'file:a.parquet', name: 'docs', ...dataset }] }, '/b');
  return { search: m.datasets[0]?.search, warnings: m.warnings };
}

const problem = (dataset: object) => manifestProblem(() => load(dataset));

describe('full_text_search in the manifest', () => {
  it('collects the enabled columns in order, with the row id; no warning for the key', () => {
    const { search, warnings } = load({
      columns: [
        { name: 'title', full_text_search: { enabled: true, row_id: ['id'] } },
        { name: 'tag' },
        { name: 'body', full_text_search: { enabled: true } },
        { name: 'off', full_text_search: { enabled: false } },
      ],
    });
    assert.deepEqual(search, { columns: ['title', 'body'], rowId: ['id'] });
    assert.deepEqual(warnings, []);
  });

  it('row_id as one name; enabled defaults to true; acceleration.primary_key as the fallback', () => {
    assert.deepEqual(load({ columns: [{ name: 'b', full_text_search: { row_id: 'id' } }] }).search, {
      columns: ['b'],
      rowId: ['id'],
    });
    const keyed = load({
      columns: [{ name: 'b', full_text_search: { enabled: true } }],
      acceleration: { enabled: true, primary_key: '(a, b2)' },
    });
    assert.deepEqual(keyed.search, { columns: ['b'], rowId: ['a', 'b2'] });
  });

  it('no search without an enabled column', () => {
    assert.equal(load({ columns: [{ name: 'b' }] }).search, undefined);
    assert.equal(load({}).search, undefined);
  });

  const problems: [string, object, RegExp][] = [
    [
      'no row id',
      { columns: [{ name: 'b', full_text_search: { enabled: true } }] },
      /^datasets\[0\]\.columns: full_text_search needs a row_id/,
    ],
    [
      'two row ids',
      {
        columns: [
          { name: 'a', full_text_search: { row_id: ['x'] } },
          { name: 'b', full_text_search: { row_id: ['y'] } },
        ],
      },
      /^datasets\[0\]\.columns\[1\]\.full_text_search\.row_id: differs from datasets\[0\]\.columns\[0\]/,
    ],
    [
      'a column twice',
      {
        columns: [
          { name: 'a', full_text_search: { row_id: 'x' } },
          { name: 'a', full_text_search: {} },
        ],
      },
      /^datasets\[0\]\.columns\[1\]\.name: column 'a' is listed twice/,
    ],
    [
      'an unknown key',
      { columns: [{ name: 'a', full_text_search: { row_id: 'x', stem: true } }] },
      /full_text_search\.stem: unknown key/,
    ],
    [
      'enabled not a boolean',
      { columns: [{ name: 'a', full_text_search: { enabled: 'yes' } }] },
      /full_text_search\.enabled/,
    ],
    ['an empty row_id', { columns: [{ name: 'a', full_text_search: { row_id: [] } }] }, /full_text_search\.row_id/],
  ];
  for (const [what, dataset, message] of problems) {
    it(`refuses ${what}`, () => assert.match(problem(dataset), message));
  }
});
