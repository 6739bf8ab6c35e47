// Differential testing: each query runs on floe (file-backed and in-memory) and on DuckDB over the same
// generated Parquet files; results must agree (decimals and integers exactly as text, floats within
// FLOAT_REL_TOLERANCE, rows in any order unless the query has ORDER BY).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { compareRows, FLOAT_REL_TOLERANCE } from '../../bench/lib/result-rows.js';
import { createDuckDbOracle, type Oracle } from '../helpers/duckdb-oracle.js';
import { createTestEngines, queryRows, type ResultRows, type TestEngines } from '../helpers/engines.js';
import { type TestData, writeTestData } from '../helpers/gen-data.js';
import { KNOWN_FAILURES } from './known-failures.js';

export { FLOAT_REL_TOLERANCE };

export interface DiffCase {
  /** The query as floe (PostgreSQL semantics) runs it. */
  readonly sql: string;
  /** DuckDB's spelling of the same question, when DuckDB's semantics differ (say why next to the case). */
  readonly duckdb?: string;
}

type Rows = (string | null)[][];

/** Registers one node:test test per case, plus a check that every KNOWN_FAILURES entry of `suite` is used. */
export function differentialSuite(
  suite: string,
  cases: readonly DiffCase[],
  makeData: () => Promise<TestData> = writeTestData,
): void {
  let data: TestData;
  let engines: TestEngines;
  let oracle: Oracle;
  before(async () => {
    data = await makeData();
    engines = await createTestEngines(data, { parallel: true });
    oracle = await createDuckDbOracle(data);
  });
  after(async () => {
    oracle.close();
    await data.remove();
  });
  const used = new Set<string>();
  for (const c of cases) {
    const known = KNOWN_FAILURES.find((k) => k.suite === suite && oneLine(k.sql) === oneLine(c.sql));
    if (known) used.add(oneLine(known.sql));
    test(oneLine(c.sql).slice(0, 120), async () => {
      const problem = await check(c, engines, oracle);
      if (known) assert.ok(problem !== null, `now passes: remove it from KNOWN_FAILURES (${known.bug})`);
      else assert.equal(problem, null, problem ?? '');
    });
  }
  test(`${suite}: every KNOWN_FAILURES entry names a case`, () => {
    const stale = KNOWN_FAILURES.filter((k) => k.suite === suite && !used.has(oneLine(k.sql)));
    assert.deepEqual(stale, []);
  });
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** Why floe and DuckDB disagree on `c`, or null when they agree. */
async function check(c: DiffCase, engines: TestEngines, oracle: Oracle): Promise<string | null> {
  let expected: Rows;
  try {
    expected = (await oracle.query(c.duckdb ?? c.sql)).rows;
  } catch (e) {
    throw new Error(`DuckDB rejected the oracle query: ${e instanceof Error ? e.message : String(e)}`);
  }
  const ordered = /\border\s+by\b/i.test(c.sql);
  for (const [name, engine] of Object.entries(engines)) {
    if (engine === undefined) continue;
    let actual: ResultRows;
    try {
      actual = await queryRows(engine, c.sql);
    } catch (e) {
      return `${name}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
    }
    const floats = actual.types.map((t) => t.id === 'float64');
    const problem = compareRows(
      { names: actual.names, floats, rows: actual.rows },
      { names: expected[0]?.map((_, c) => String(c)) ?? actual.names, floats: [], rows: expected },
      ordered,
    );
    if (problem) return `${name}: floe vs DuckDB: ${problem}`;
  }
  return null;
}
