// Per-engine dialect variants: a variant replaces the standard text for its engine only, variants of unknown queries
// are refused, and each committed variant names its engine's dialect change in its first line.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TPCH_QUERIES_DIR } from '../../../bench/lib/paths.js';
import { EXTRA_ENGINES } from '../../../bench/tpch/engine-names.js';
import { loadVariants, queriesFor } from '../../../bench/tpch/query-variants.js';
import { loadQueries } from '../../../bench/tpch/run-tpch.js';

describe('loadVariants and queriesFor', () => {
  it('uses an engine variant where there is one and the standard text elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'floe-variants-'));
    try {
      mkdirSync(join(dir, 'polars'));
      writeFileSync(join(dir, 'polars', 'q06.sql'), 'select 6');
      writeFileSync(join(dir, 'polars', 'notes.txt'), 'not a query');
      const standard = new Map([
        ['q01', 'select 1'],
        ['q06', 'select 0.06'],
      ]);
      assert.deepEqual(
        [...queriesFor(standard, loadVariants('polars', dir))],
        [
          ['q01', { sql: 'select 1', variant: false }],
          ['q06', { sql: 'select 6', variant: true }],
        ],
      );
      assert.deepEqual(loadVariants('alasql', dir), new Map());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a variant of a query TPC-H does not have', () => {
    const standard = new Map([['q01', 'select 1']]);
    assert.throws(() => queriesFor(standard, new Map([['q23', 'select 23']])), /variants of no TPC-H query: q23/);
  });

  it('gives every committed variant a known query and a first line naming the dialect change', () => {
    const ids = new Set(loadQueries().keys());
    for (const engine of EXTRA_ENGINES) {
      const files = readdirSync(join(TPCH_QUERIES_DIR, engine));
      assert.deepEqual(
        files.filter((f) => !/^q\d\d\.sql$/.test(f) || !ids.has(f.slice(0, 3))),
        [],
        engine,
      );
      for (const [id, sql] of loadVariants(engine)) {
        assert.match(sql.split('\n')[0]!, new RegExp(`^-- ${engine} dialect: \\S`), `${engine} ${id}`);
      }
    }
  });
});
