// Differential testing: each query runs on floe (file-backed, in-memory and parallel), on PostgreSQL and on DuckDB
// over the same generated data. PostgreSQL decides: floe must return its rows (decimals and integers exactly as
// text, floats within FLOAT_REL_TOLERANCE, rows in any order unless the query has ORDER BY). DuckDB must agree with
// PostgreSQL too, unless the case says why it does not (`pgDiffers`).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { compareRows, FLOAT_REL_TOLERANCE, orderColumns } from '../../bench/lib/result-rows.js';
import { createDuckDbOracle, type Oracle } from '../helpers/duckdb-oracle.js';
import { createTestEngines, queryRows, type ResultRows, type TestEngines } from '../helpers/engines.js';
import { type TestData, writeTestData } from '../helpers/gen-data.js';
import { createPostgresOracle } from '../helpers/postgres-oracle.js';
import { KNOWN_FAILURES } from './known-failures.js';

export { FLOAT_REL_TOLERANCE };

export interface DiffCase {
  /** The query as floe (PostgreSQL semantics) runs it. */
  readonly sql: string;
  /** DuckDB's spelling of the same question, when DuckDB's syntax or semantics differ (say why next to the case). */
  readonly duckdb?: string;
  /** PostgreSQL's spelling of the same question, when floe accepts syntax PostgreSQL does not (say why). */
  readonly postgres?: string;
  /** Why DuckDB's answer differs from PostgreSQL's: the DuckDB comparison is then skipped (and must still differ). */
  readonly pgDiffers?: string;
}

type Rows = (string | null)[][];
type OracleRows = Awaited<ReturnType<Oracle['query']>>;
interface Oracles {
  readonly postgres: Oracle;
  readonly duckdb: Oracle;
}

/** Registers one node:test test per case, plus a check that every KNOWN_FAILURES entry of `suite` is used. */
export function differentialSuite(
  suite: string,
  cases: readonly DiffCase[],
  makeData: () => Promise<TestData> = writeTestData,
): void {
  let data: TestData;
  let engines: TestEngines;
  let oracles: Oracles;
  before(async () => {
    data = await makeData();
    engines = await createTestEngines(data, { parallel: true });
    const [postgres, duckdb] = await Promise.all([createPostgresOracle(data), createDuckDbOracle(data)]);
    oracles = { postgres, duckdb };
  });
  after(async () => {
    await oracles?.duckdb.close();
    await oracles?.postgres.close();
    await data?.remove();
  });
  const used = new Set<string>();
  for (const c of cases) {
    const known = KNOWN_FAILURES.find((k) => k.suite === suite && oneLine(k.sql) === oneLine(c.sql));
    if (known) used.add(oneLine(known.sql));
    test(oneLine(c.sql).slice(0, 120), async () => {
      const expected = await oracleRows(c, oracles);
      const problem = await check(c, engines, expected);
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

/** How rows of `sql` compare: in any order, or ordered by its ORDER BY columns (ties in any order) when it has one. */
function orderOf(sql: string, names: readonly string[]): boolean | number[] {
  return /\border\s+by\b/i.test(sql) ? (orderColumns(sql, names) ?? true) : false;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * PostgreSQL's rows for `c`, after checking that DuckDB agrees with them (or, with `pgDiffers`, that it does not).
 * Throws when an oracle rejects the query or they disagree without a word: the case must say why.
 */
async function oracleRows(c: DiffCase, oracles: Oracles): Promise<Rows> {
  const pgSql = c.postgres ?? c.sql;
  let pgResult: OracleRows;
  try {
    pgResult = await oracles.postgres.query(pgSql);
  } catch (e) {
    throw new Error(`PostgreSQL rejected the oracle query (give the case a \`postgres:\` spelling): ${message(e)}`);
  }
  let duckResult: OracleRows;
  try {
    duckResult = await oracles.duckdb.query(c.duckdb ?? c.sql);
  } catch (e) {
    throw new Error(`DuckDB rejected the oracle query (give the case a \`duckdb:\` spelling): ${message(e)}`);
  }
  const expected = pgResult.rows;
  const names = pgResult.types.map((_, i) => String(i));
  // Between the oracles a number is a number: DuckDB's avg is a double where PostgreSQL's is numeric(…, 16).
  const numeric = (types: string[]) => types.map((t) => /^(numeric|double|real|decimal|float)/i.test(t));
  const floats = numeric(pgResult.types).map((f, i) => f || numeric(duckResult.types)[i] === true);
  const differs = compareRows(
    { names: duckResult.types.map((_, i) => String(i)), floats, rows: duckResult.rows },
    { names, floats, rows: expected },
    orderOf(pgSql, names),
  );
  if (differs !== null && c.pgDiffers === undefined) {
    throw new Error(`DuckDB and PostgreSQL disagree (say why in \`pgDiffers\`): DuckDB vs PostgreSQL: ${differs}`);
  }
  if (differs === null && c.pgDiffers !== undefined) {
    throw new Error(`DuckDB now agrees with PostgreSQL: remove \`pgDiffers\` (${c.pgDiffers})`);
  }
  return expected;
}

/** Why floe disagrees with PostgreSQL's `expected` rows for `c`, or null when every engine agrees. */
async function check(c: DiffCase, engines: TestEngines, expected: Rows): Promise<string | null> {
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
      orderOf(c.sql, actual.names),
    );
    if (problem) return `${name}: floe vs PostgreSQL: ${problem}`;
  }
  return null;
}
