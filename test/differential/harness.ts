// Differential testing: each query runs on floe (file-backed and in-memory) and on DuckDB over the same
// generated Parquet files; results must agree (decimals and integers exactly as text, floats within
// FLOAT_REL_TOLERANCE, rows in any order unless the query has ORDER BY).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDuckDbOracle, type Oracle } from '../helpers/duckdb-oracle.js';
import { createTestEngines, queryRows, type ResultRows, type TestEngines } from '../helpers/engines.js';
import { type TestData, writeTestData } from '../helpers/gen-data.js';
import { closeFloats, FLOAT_REL_TOLERANCE } from '../slt/runner.js';
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
export function differentialSuite(suite: string, cases: readonly DiffCase[]): void {
  let data: TestData;
  let engines: TestEngines;
  let oracle: Oracle;
  before(async () => {
    data = await writeTestData();
    engines = await createTestEngines(data);
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
    let actual: ResultRows;
    try {
      actual = await queryRows(engine, c.sql);
    } catch (e) {
      return `${name}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
    }
    const problem = compareRows(actual, expected, ordered);
    if (problem) return `${name}: ${problem}`;
  }
  return null;
}

function compareRows(actual: ResultRows, expected: Rows, ordered: boolean): string | null {
  const floats = actual.types.map((t) => t.id === 'float64');
  const width = actual.types.length;
  if (expected.length > 0 && expected[0]!.length !== width) {
    return `column count: floe ${width}, DuckDB ${expected[0]!.length}`;
  }
  if (actual.rows.length !== expected.length) {
    return `row count: floe ${actual.rows.length}, DuckDB ${expected.length}\n${show(actual.rows, expected)}`;
  }
  const a = ordered ? actual.rows : sortRows(actual.rows, floats);
  const b = ordered ? expected : sortRows(expected, floats);
  for (let r = 0; r < a.length; r++) {
    const same = a[r]!.every((v, c) => sameCell(v, b[r]![c]!, floats[c]!));
    if (!same) return `row ${r + 1}: floe ${JSON.stringify(a[r])}, DuckDB ${JSON.stringify(b[r])}\n${show(a, b)}`;
  }
  return null;
}

function sameCell(a: string | null, b: string | null, float: boolean): boolean {
  if (a === null || b === null) return a === b;
  return a === b || (float && closeFloats(a, b));
}

/** Sorts rows by their text, floats rounded so that values within tolerance sort alike. */
function sortRows(rows: Rows, floats: readonly boolean[]): Rows {
  const key = (row: (string | null)[]) =>
    row.map((v, c) => (v === null ? '\u0000NULL' : floats[c] ? Number(v).toPrecision(6) : v)).join('\u0001');
  return rows
    .map((row) => [key(row), row] as const)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([, row]) => row);
}

function show(a: Rows, b: Rows): string {
  const rows = (rs: Rows) =>
    rs
      .slice(0, 8)
      .map((r) => `    ${JSON.stringify(r)}`)
      .join('\n');
  return `  floe (first 8):\n${rows(a)}\n  DuckDB (first 8):\n${rows(b)}`;
}
