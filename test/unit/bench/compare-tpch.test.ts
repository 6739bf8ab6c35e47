// The regression check of `npm run bench -- compare`: per-query ratio limit (+15%), geometric-mean limit (+5%),
// queries that now fail or answer differently, and ratios rather than times (a slower machine is no regression).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareTpch, GEOMEAN_REGRESSION, QUERY_REGRESSION } from '../../../bench/tpch/compare-tpch.js';
import { type QueryOutcome, summarize, type TpchResults } from '../../../bench/tpch/tpch-results.js';

type Case = { floe: number | 'failed'; duckdb?: number; identical?: boolean };

/** A results file whose queries have the given floe and DuckDB medians (DuckDB 10 ms unless given). */
function run(cases: Record<string, Case>, config: Partial<TpchResults['config']> = {}): TpchResults {
  const queries = Object.entries(cases).map(([id, c]): QueryOutcome => {
    const duckdbMs = c.duckdb ?? 10;
    const duckdb = { medianMs: duckdbMs, runsMs: [duckdbMs] };
    if (c.floe === 'failed') return { id, floe: { error: 'joins' }, duckdb, ratio: null, identical: null, rows: 1 };
    const floe = { medianMs: c.floe, runsMs: [c.floe] };
    return { id, floe, duckdb, ratio: c.floe / duckdbMs, identical: c.identical ?? true, rows: 1 };
  });
  return {
    kind: 'tpch',
    formatVersion: 1,
    label: 'test',
    date: '2025-01-01T00:00:00.000Z',
    config: { sf: 1, seed: 1, mode: 'files', runs: 5, threads: 1, generatorVersion: 1, timeoutS: 300, ...config },
    machine: {} as TpchResults['machine'],
    data: { rows: {} as TpchResults['data']['rows'], generatedS: null },
    engines: {} as TpchResults['engines'],
    queries,
    summary: summarize(queries),
  };
}

const verdicts = (base: TpchResults, next: TpchResults) =>
  Object.fromEntries(compareTpch(base, next).queries.map((q) => [q.id, q.verdict]));

describe('compareTpch', () => {
  it('uses 15% per query and 5% for the geometric mean', () => {
    assert.equal(QUERY_REGRESSION, 0.15);
    assert.equal(GEOMEAN_REGRESSION, 0.05);
  });

  it('passes identical runs', () => {
    const base = run({ q01: { floe: 50 }, q06: { floe: 20 } });
    const c = compareTpch(base, base);
    assert.deepEqual(c.regressions, []);
    assert.equal(c.geomeanChange, 0);
    assert.equal(c.common, 2);
  });

  it('flags a query whose ratio grew by more than 15%, not one at 14%', () => {
    const same = Object.fromEntries(['q10', 'q11', 'q12', 'q13', 'q14', 'q15'].map((id) => [id, { floe: 100 }]));
    const base = run({ q01: { floe: 100 }, q06: { floe: 100 }, ...same });
    const next = run({ q01: { floe: 114 }, q06: { floe: 116 }, ...same });
    assert.deepEqual(
      Object.entries(verdicts(base, next)).filter(([, v]) => v !== 'ok'),
      [['q06', 'slower']],
    );
    const c = compareTpch(base, next);
    assert.ok(c.geomeanChange! < GEOMEAN_REGRESSION);
    assert.deepEqual(c.regressions, ['q06: slower (+16.0%)']);
  });

  it('flags the geometric mean past +5% even when no single query passes +15%', () => {
    const ids = ['q01', 'q06', 'q14', 'q19'];
    const base = run(Object.fromEntries(ids.map((id) => [id, { floe: 100 }])));
    const slower = (f: number) => run(Object.fromEntries(ids.map((id) => [id, { floe: f }])));
    assert.deepEqual(compareTpch(base, slower(104.9)).regressions, []);
    const c = compareTpch(base, slower(110));
    assert.deepEqual(Object.values(verdicts(base, slower(110))), ['ok', 'ok', 'ok', 'ok']);
    assert.equal(c.regressions.length, 1);
    assert.match(c.regressions[0]!, /^geometric mean: \+10\.0%/);
  });

  it('compares ratios, not times: a machine twice as slow for both engines is no regression', () => {
    const base = run({ q01: { floe: 100, duckdb: 10 }, q06: { floe: 30, duckdb: 5 } });
    const next = run({ q01: { floe: 200, duckdb: 20 }, q06: { floe: 60, duckdb: 10 } });
    assert.deepEqual(compareTpch(base, next).regressions, []);
    const fasterDuck = run({ q01: { floe: 100, duckdb: 8 }, q06: { floe: 30, duckdb: 5 } });
    assert.deepEqual(verdicts(base, fasterDuck), { q01: 'slower', q06: 'ok' });
  });

  it('flags a query that now fails or answers differently; a query that now runs is no regression', () => {
    const base = run({ q01: { floe: 100 }, q03: { floe: 'failed' }, q06: { floe: 100 }, q14: { floe: 100 } });
    const next = run({
      q01: { floe: 'failed' },
      q03: { floe: 400 },
      q06: { floe: 100, identical: false },
      q14: { floe: 60 },
    });
    assert.deepEqual(verdicts(base, next), { q01: 'now fails', q03: 'now runs', q06: 'wrong result', q14: 'faster' });
    assert.deepEqual(
      compareTpch(base, next).regressions.map((r) => r.split(':')[0]),
      ['q01', 'q06'],
    );
  });

  it('takes the geometric mean over the queries both runs ran only', () => {
    const base = run({ q01: { floe: 100 }, q03: { floe: 'failed' } });
    const next = run({ q01: { floe: 100 }, q03: { floe: 10_000 } });
    const c = compareTpch(base, next);
    assert.equal(c.common, 1);
    assert.equal(c.geomeanChange, 0);
    assert.deepEqual(c.regressions, []);
  });

  it('refuses runs of another scale factor or mode, and warns about other thread counts', () => {
    const c = compareTpch(run({ q01: { floe: 1 } }), run({ q01: { floe: 1 } }, { mode: 'memory', sf: 0.1 }));
    assert.deepEqual(c.regressions, ['not comparable (sf: 1 vs 0.1)', 'not comparable (mode: files vs memory)']);
    const threads = compareTpch(run({ q01: { floe: 1 } }), run({ q01: { floe: 1 } }, { threads: 2 }));
    assert.deepEqual(threads.regressions, []);
    assert.deepEqual(threads.warnings, ['the runs differ in threads: 1 vs 2']);
  });

  it('warns about other warm-up counts, a file without one counting as a single warm-up', () => {
    const old = run({ q01: { floe: 1 } });
    assert.deepEqual(compareTpch(old, run({ q01: { floe: 1 } }, { warmups: 1 })).warnings, []);
    const c = compareTpch(old, run({ q01: { floe: 1 } }, { warmups: 3 }));
    assert.deepEqual(c.regressions, []);
    assert.deepEqual(c.warnings, ['the runs differ in warmups: 1 vs 3']);
  });

  it('compares ClickBench runs by rows, never with TPC-H runs; warns about the plan cache and threads used', () => {
    const clickbench = (rows: number, extra: object = {}) =>
      ({ ...run({ q00: { floe: 1 } }), kind: 'clickbench', config: { ...run({}).config, rows, ...extra } }) as never;
    assert.deepEqual(compareTpch(run({ q00: { floe: 1 } }), clickbench(1000)).regressions, [
      'not comparable (benchmark: tpch vs clickbench)',
    ]);
    assert.deepEqual(compareTpch(clickbench(1000), clickbench(2000)).regressions, [
      'not comparable (rows: 1000 vs 2000)',
    ]);
    const c = compareTpch(clickbench(1000), clickbench(1000, { planCache: false }));
    assert.deepEqual(c.regressions, []);
    assert.deepEqual(c.warnings, ["the runs differ in floe's plan cache: on vs off"]);
    const used = (floe: number) => ({ ...run({ q01: { floe: 1 } }), engines: { floe: { threads: floe }, duckdb: {} } });
    assert.deepEqual(compareTpch(used(2) as never, used(3) as never).warnings, [
      "the runs differ in floe's threads: 2 vs 3",
    ]);
  });
});
