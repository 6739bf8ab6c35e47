// The extra engines' report: timeouts told apart from failures, and the summary counts over a made-up run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extraNotes, failureKind, summarizeExtra } from '../../../bench/tpch/extra-report.js';
import type { ExtraOutcome, QueryOutcome, TpchResults } from '../../../bench/tpch/tpch-results.js';

const timed = (ms: number) => ({ medianMs: ms, runsMs: [ms] });

function query(id: string, floeMs: number | null, polars: ExtraOutcome): QueryOutcome {
  const floe = floeMs === null ? { error: 'no' } : timed(floeMs);
  return { id, floe, duckdb: timed(10), ratio: null, identical: null, rows: 1, extra: { polars } };
}

describe('extra engine report', () => {
  it('tells a timeout from a failure by its error text', () => {
    assert.equal(failureKind('no answer within 60 s (killed)'), 'timeout');
    assert.equal(failureKind('cancelled after the 60 s timeout'), 'timeout');
    assert.equal(failureKind("Error: unsupported interval syntax ('INTERVAL '1' YEAR')"), 'fails');
  });

  it('counts runs, variants, agreement with DuckDB and floe ÷ engine over the queries both ran', () => {
    const queries = [
      query('q01', 20, { ...timed(10), variant: true, identical: true }),
      query('q02', 20, { ...timed(40), variant: false, identical: false, mismatch: 'row 1: a vs b\nmore' }),
      query('q03', null, { ...timed(5), variant: false, identical: true }),
      query('q04', 10, { error: 'no answer within 60 s (killed)', variant: false, identical: null }),
      query('q05', 10, { error: 'Error: subquery comparisons\nstack', variant: true, identical: null }),
    ];
    const r = { queries, config: { extraEngines: ['polars'] }, engines: {} } as unknown as TpchResults;
    const s = summarizeExtra(r, 'polars');
    assert.deepEqual(
      { ...s, geomeanFloeRatio: Number(s.geomeanFloeRatio!.toFixed(6)) },
      {
        engine: 'polars',
        ran: 3,
        variants: 2,
        identical: 2,
        failed: 1,
        timedOut: 1,
        both: 2,
        floeFaster: 1,
        geomeanFloeRatio: 1, // sqrt(20/10 × 20/40)
      },
    );
    assert.deepEqual(extraNotes(r, 'polars'), [
      'polars q02 differs from DuckDB: row 1: a vs b',
      'polars q04 timeout: no answer within 60 s (killed)',
      'polars q05 fails: Error: subquery comparisons',
    ]);
  });
});
