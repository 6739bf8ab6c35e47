// Generated queries (seeded) on floe vs PostgreSQL 15: the same rows, or an error on both sides.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { compareRows } from '../../bench/lib/result-rows.js';
import type { Oracle } from '../helpers/duckdb-oracle.js';
import { createTestEngines, queryRows, type TestEngines } from '../helpers/engines.js';
import type { TestData } from '../helpers/gen-data.js';
import { createPostgresOracle } from '../helpers/postgres-oracle.js';
import { excludedForms } from './exclusions.js';
import { type GeneratedCase, generateCase } from './query-gen.js';
import { writeGeneratedTables } from './tables.js';

/** Cases in `npm test`; FLOE_GEN_CASES and FLOE_GEN_SEED run more, or others, on demand. */
const DEFAULT_CASES = 1500;
const DEFAULT_SEED = 1;
const CASES = Number(process.env.FLOE_GEN_CASES ?? DEFAULT_CASES);
const SEED = Number(process.env.FLOE_GEN_SEED ?? DEFAULT_SEED);
const EXCLUDED = excludedForms();

type Answer = { rows: (string | null)[][]; floats: boolean[]; names: string[] } | { error: string };

let data: TestData;
let engines: TestEngines;
let postgres: Oracle;
before(async () => {
  data = await writeGeneratedTables();
  engines = await createTestEngines(data);
  postgres = await createPostgresOracle(data);
});
after(async () => {
  await postgres?.close();
  await data?.remove();
});

const message = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

async function pgAnswer(sql: string): Promise<Answer> {
  try {
    const r = await postgres.query(sql);
    return { rows: r.rows, floats: r.types.map((t) => t === 'double precision'), names: r.types.map(String) };
  } catch (e) {
    return { error: message(e) };
  }
}

const TRAILING_LIMIT = /\s+LIMIT\s+\d+(?:\s+OFFSET\s+\d+)?\s*$/i;

/**
 * Whether PostgreSQL raises on `sql` once its trailing LIMIT is gone: under a LIMIT it may stop reading before
 * the row that raises (an incremental sort over an index), where floe evaluates every row before the limit; an
 * error that depends on the rows read is then not a disagreement.
 */
async function raisesWithoutLimit(sql: string): Promise<boolean> {
  return TRAILING_LIMIT.test(sql) && 'error' in (await pgAnswer(sql.replace(TRAILING_LIMIT, '')));
}

/** Why floe's engines disagree with PostgreSQL on `c`, or null. */
async function check(c: GeneratedCase): Promise<string | null> {
  const expected = await pgAnswer(c.sql);
  for (const [name, engine] of Object.entries(engines)) {
    let actual: Answer;
    try {
      const r = await queryRows(engine, c.sql);
      actual = { rows: r.rows, floats: r.types.map((t) => t.id === 'float64'), names: r.names };
    } catch (e) {
      actual = { error: message(e) };
    }
    if ('error' in expected && 'error' in actual) continue;
    if ('error' in expected) return `${name}: PostgreSQL raised "${expected.error}", floe returned rows`;
    if ('error' in actual && !(await raisesWithoutLimit(c.sql)))
      return `${name}: floe raised "${actual.error}", PostgreSQL returned rows`;
    if ('error' in actual) continue;
    const problem = compareRows(actual, { ...expected, names: actual.names }, c.ordered);
    if (problem) return `${name}: floe vs PostgreSQL: ${problem}`;
  }
  return null;
}

for (let i = 0; i < CASES; i++) {
  const c = generateCase(SEED, i, EXCLUDED);
  test(`#${i} ${c.sql.slice(0, 100)}`, async () => {
    const problem = await check(c);
    const repro = `FLOE_GEN_SEED=${SEED} case #${i}\n  ${c.sql}`;
    assert.equal(problem, null, `${repro}\n${problem}`);
  });
}
