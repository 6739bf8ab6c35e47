// `ExecuteOptions.allowWrites: false` (a read-only API key): every statement that writes is refused with
// `ForbiddenError` before it is planned; queries, EXPLAIN and session commands still run or fail as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, createMapCatalog, EngineError } from '../../../engine/index.js';

// An empty catalog: a write refused as `forbidden` never looked its table up (planning would say "not found").
const engine = createEngine({ catalog: createMapCatalog(new Map()) });

async function kindOf(sql: string, allowWrites?: boolean): Promise<string> {
  try {
    const result = await engine.execute(sql, { allowWrites });
    for await (const _ of result.batches);
    return 'ok';
  } catch (e) {
    // Not asserted here: without allowWrites some writes still fail with a plain TypeError (ALTER TABLE).
    return e instanceof EngineError ? e.kind : `thrown: ${e}`;
  }
}

const WRITES = [
  'INSERT INTO t VALUES (1)',
  'UPDATE t SET a = 1',
  'DELETE FROM t',
  'CREATE TABLE x (a int)',
  'DROP TABLE t',
  'ALTER TABLE t ADD COLUMN b int',
  'TRUNCATE t',
  'CREATE VIEW v AS SELECT 1',
  'GRANT SELECT ON t TO u',
  'SELECT 1 AS a INTO t2',
  'SELECT * FROM (SELECT 1 AS a) s UNION SELECT 2 INTO t3',
];

describe('allowWrites: false', () => {
  for (const sql of WRITES) {
    it(`refuses ${sql} as forbidden before planning`, async () => {
      assert.equal(await kindOf(sql, false), 'forbidden');
      assert.notEqual(await kindOf(sql), 'forbidden');
    });
  }

  it('names the statement in the message', async () => {
    await assert.rejects(engine.execute('INSERT INTO t VALUES (1)', { allowWrites: false }), {
      name: 'ForbiddenError',
      message: 'INSERT is not allowed in a read-only SQL context',
    });
  });

  for (const sql of [
    'SELECT 1',
    'SELECT 1 UNION SELECT 2',
    'VALUES (1)',
    'WITH a AS (SELECT 1 AS x) SELECT x FROM a',
  ]) {
    it(`runs ${sql}, also from the plan cache`, async () => {
      assert.equal(await kindOf(sql, false), 'ok');
      assert.equal(await kindOf(sql, false), 'ok');
    });
  }

  it('lets EXPLAIN through (it plans without running) and parse errors stay parse errors', async () => {
    assert.equal(await kindOf('EXPLAIN SELECT 1', false), 'ok');
    assert.equal(await kindOf('INSERT INTO', false), 'parse');
  });
});
