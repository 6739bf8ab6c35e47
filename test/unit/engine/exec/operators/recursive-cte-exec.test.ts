// RecursiveCteExec: an unbounded recursion stops on the abort signal, or at its bounds with an error naming them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_RECURSIVE_ITERATIONS,
  MAX_RECURSIVE_ROWS,
} from '../../../../../engine/exec/operators/recursive-cte-exec.js';
import { CancelledError, createEngine, createMapCatalog, ExecError } from '../../../../../engine/index.js';

const engine = createEngine({ catalog: createMapCatalog(new Map()), parallel: { threads: 0 } });
const UNBOUNDED = 'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t';

async function drain(sql: string, signal?: AbortSignal): Promise<void> {
  const result = await engine.execute(sql, { signal });
  for await (const _ of result.batches);
}

test('an unbounded recursion stops soon after the query is aborted', async () => {
  const controller = new AbortController();
  const start = performance.now();
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(drain(UNBOUNDED, controller.signal), CancelledError);
  assert.ok(performance.now() - start < 5_000);
});

test('the bounds are generous and fail with an error naming them', async () => {
  assert.equal(MAX_RECURSIVE_ITERATIONS, 100_000);
  assert.equal(MAX_RECURSIVE_ROWS, 1_000_000);
  await assert.rejects(
    drain(UNBOUNDED),
    (e: Error) => e instanceof ExecError && /MAX_RECURSIVE_ITERATIONS/.test(e.message),
  );
});

test('a recursion just inside the iteration bound completes', async () => {
  const sql = `WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n <= ${MAX_RECURSIVE_ITERATIONS - 1}) SELECT count(*) FROM t`;
  await drain(sql);
});
