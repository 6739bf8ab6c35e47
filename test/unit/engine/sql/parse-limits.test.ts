// Pathological SQL text answers a ParseError/PlanError in bounded time: deep nesting, syntax errors deep inside
// parentheses (node-sql-parser backtracks exponentially, parse-budget.ts), and error messages over huge lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, createMapCatalog, EngineError } from '../../../../engine/index.js';
import { ERROR_WINDOW, parseSql } from '../../../../engine/sql/parse.js';

const engine = createEngine({ catalog: createMapCatalog(new Map()), parallel: { threads: 0 } });

/** The error `sql` fails with, and how long it took. */
async function failure(sql: string): Promise<{ error: EngineError; ms: number }> {
  const t0 = performance.now();
  try {
    const result = await engine.execute(sql);
    for await (const _ of result.batches);
  } catch (e) {
    assert.ok(e instanceof EngineError, `expected an EngineError, got ${String(e)}`);
    assert.notEqual(e.kind, 'internal');
    return { error: e, ms: performance.now() - t0 };
  }
  assert.fail(`expected ${sql.slice(0, 40)}… to fail`);
}

const nested = (n: number, inner: string) => `SELECT ${'('.repeat(n)}${inner}${')'.repeat(n)}`;

describe('parse limits', () => {
  for (const depth of [18, 200]) {
    it(`a syntax error inside ${depth} parentheses fails fast, at its position`, async () => {
      const { error, ms } = await failure(nested(depth, '='));
      assert.equal(error.kind, 'parse');
      assert.match(error.message, new RegExp(`^syntax error at line 1, column ${depth + 8}: unexpected "="`));
      assert.ok(ms < 5000, `took ${ms} ms`);
    });
  }

  it('a syntax error deep inside nested subqueries and casts fails fast', async () => {
    for (const sql of [
      `SELECT ${'(SELECT '.repeat(8)}=${')'.repeat(8)}`,
      `SELECT ${'CAST(('.repeat(6)}=${') AS int)'.repeat(6)}`,
    ]) {
      const { error, ms } = await failure(sql);
      assert.match(error.message, /^syntax error at line 1, column \d+: unexpected "="/);
      assert.ok(ms < 5000, `took ${ms} ms`);
    }
  });

  it('deeply nested statements that parse still answer', async () => {
    const result = await engine.execute(`${nested(40, '1')}, ${'NOT '.repeat(50)}TRUE`);
    for await (const _ of result.batches);
  });

  for (const [what, sql] of [
    ['10,000 parentheses', nested(10_000, '1')],
    ['10,000 NOTs', `SELECT ${'NOT '.repeat(10_000)}TRUE`],
    ['3,000 NOTs', `SELECT ${'NOT '.repeat(3_000)}TRUE`],
    ['5,000 additions', `SELECT 1${' + 1'.repeat(5_000)}`],
  ] as const) {
    it(`${what}: stack depth limit exceeded`, async () => {
      const { error, ms } = await failure(sql);
      assert.match(error.message, /^stack depth limit exceeded/);
      assert.ok(ms < 10_000, `took ${ms} ms`);
    });
  }

  it('a syntax error in a long line quotes a window around the position', () => {
    const sql = `SELECT ${'x'.repeat(100_000)} FROM t WHERE ) AND ${'y'.repeat(100_000)}`;
    assert.throws(
      () => parseSql(sql),
      (e: Error) => {
        const [head, text, caret] = e.message.split('\n');
        assert.equal(head, 'syntax error at line 1, column 100022: unexpected ")"');
        assert.equal(text, `  …${'x'.repeat(ERROR_WINDOW - 14)} FROM t WHERE ) AND ${'y'.repeat(ERROR_WINDOW - 6)}…`);
        assert.equal(caret, `  ${' '.repeat(ERROR_WINDOW + 1)}^`);
        return true;
      },
    );
  });

  it('a long token is quoted cut', () => {
    assert.throws(
      () => parseSql(`SELECT 1 FROM t u ${'u'.repeat(1000)}`),
      (e: Error) => e.message.startsWith(`syntax error at line 1, column 19: unexpected "${'u'.repeat(60)}"`),
    );
  });

  it('an error quoting a huge name is cut in the middle', async () => {
    const { error } = await failure(`SELECT "${'n'.repeat(100_000)}"`);
    assert.ok(error.message.length < 9000, `${error.message.length} characters`);
    assert.match(error.message, /characters cut/);
  });
});
