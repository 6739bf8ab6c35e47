// polars and alasql as the TPC-H runner drives them, on SF 0.01: their answers (their dialect variants where they
// have one) equal DuckDB's, and a query they cannot run throws instead of answering. alasql runs Q1 only: its Q3
// (three tables joined by WHERE) takes minutes even here.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateTpch } from '../../../bench/data/tpch-gen.js';
import { compareRows } from '../../../bench/lib/result-rows.js';
import { type BenchEngine, openEngine } from '../../../bench/tpch/bench-engines.js';
import type { ExtraEngineName } from '../../../bench/tpch/engine-names.js';
import { loadVariants, queriesFor } from '../../../bench/tpch/query-variants.js';
import { loadQueries } from '../../../bench/tpch/run-tpch.js';

describe('polars and alasql engines', () => {
  let root: string;
  let dir: string;
  let duckdb: BenchEngine;
  const queries = { polars: loadQueries(['q01', 'q03']), alasql: loadQueries(['q01']) };
  const signal = new AbortController().signal;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'floe-extra-engines-'));
    dir = (await generateTpch({ sf: 0.01, seed: 1, dir: root, threads: 1 })).dir;
    duckdb = await openEngine('duckdb', dir, 'memory', 1);
  });
  after(async () => {
    duckdb?.close();
    await rm(root, { recursive: true, force: true });
  });

  for (const name of ['polars', 'alasql'] as const satisfies readonly ExtraEngineName[]) {
    it(`${name} answers ${[...queries[name].keys()].join(' and ')} as DuckDB does`, async () => {
      const standard = queries[name];
      const engine = await openEngine(name, dir, 'memory', 1);
      try {
        for (const [id, { sql }] of queriesFor(standard, loadVariants(name))) {
          const expected = (await duckdb.run(standard.get(id)!, true, signal)).rows!;
          const actual = await engine.run(sql, true, signal);
          assert.equal(actual.rowCount, expected.rows.length, `${name} ${id}`);
          assert.equal(compareRows(actual.rows!, expected, true), null, `${name} ${id}`);
        }
        await assert.rejects(engine.run('select nope from nowhere', true, signal), `${name} on a bad query`);
      } finally {
        engine.close();
      }
    });
  }
});
