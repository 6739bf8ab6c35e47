// CatalogVersions (main thread) and VersionedCatalog (a worker) over their BroadcastChannel, in one thread.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { TableEntry } from '../../../../catalog/snapshot.js';
import { VersionedCatalog } from '../../../../catalog/versioned-catalog.js';
import { cellText, createEngine, type Engine, type MemoryTableData } from '../../../../engine/index.js';
import { createQueryPool, type QueryPool } from '../../../../server/pool/pool.js';
import { CatalogVersions } from '../../../../server/runtime/catalog-versions.js';

/** Table t whose one row holds `v`. */
function table(v: number): TableEntry {
  const data: MemoryTableData = {
    schema: { fields: [{ name: 'v', qualifier: null, type: { id: 'int32' }, nullable: false }] },
    chunks: [{ length: 1, columns: [{ type: { id: 'int32' }, values: new Int32Array([v]), valid: null, length: 1 }] }],
  };
  return { name: 't', kind: 'memory', data };
}

async function valueIn(engine: Engine): Promise<string | null> {
  const result = await engine.execute('SELECT v FROM t');
  for await (const b of result.batches) return cellText(b.columns[0]!, 0);
  return '';
}

const versions = new CatalogVersions({ tables: [table(1)] });
const worker = new VersionedCatalog(versions.channel, (catalog) => createEngine({ catalog }));
after(() => {
  worker.close();
  versions.close();
});

test('a query keeps its version while newer ones are published; the old one goes when it ends', async () => {
  await worker.ready;
  const v1 = versions.acquire();
  const old = await worker.acquire(v1);
  assert.equal(versions.publish([{ op: 'put', entry: table(2) }]).version, 2);
  const v2 = versions.acquire();
  const current = await worker.acquire(v2);
  assert.equal(await valueIn(old.engine), '1');
  assert.equal(await valueIn(current.engine), '2');
  assert.deepEqual(worker.versions, [1, 2]);
  old.release();
  // The worker is done with 1, but the main thread still counts its query.
  assert.deepEqual(worker.versions, [1, 2]);
  versions.release(v1);
  await waitFor(() => worker.versions.length === 1);
  assert.deepEqual(worker.versions, [2]);
  current.release();
  versions.release(v2);
});

test('a task for a version not received yet waits for it', async () => {
  const pending = worker.acquire(versions.version + 1);
  let settled = false;
  void pending.then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(settled, false);
  const { version } = versions.publish([{ op: 'put', entry: table(3) }]);
  const lease = await pending;
  assert.equal(lease.version, version);
  assert.equal(await valueIn(lease.engine), '3');
  lease.release();
});

test('a version retired before its (cancelled) query reached the worker gives the latest', async () => {
  const stale = versions.acquire();
  versions.publish([{ op: 'put', entry: table(4) }]);
  // The client went away: the main thread released it, and the version retired everywhere.
  versions.release(stale);
  await waitFor(() => !worker.versions.includes(stale));
  const lease = await worker.acquire(stale);
  assert.equal(lease.version, versions.version);
  assert.equal(await valueIn(lease.engine), '4');
  lease.release();
});

test('a drop of an unknown table publishes nothing', () => {
  const before = versions.version;
  assert.throws(
    () =>
      versions.publish([
        { op: 'put', entry: table(9) },
        { op: 'drop', name: 'nope' },
      ]),
    /nope/,
  );
  assert.equal(versions.version, before);
});

async function waitFor(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
}

test('the pool runs a query on the version it was stamped with, not the latest the worker has', async () => {
  const own = new CatalogVersions({ tables: [table(1)] });
  const pool = createQueryPool({ snapshot: own, workers: 1 });
  try {
    await pool.ready;
    const old = own.acquire();
    own.publish([{ op: 'put', entry: table(2) }]);
    const latest = own.acquire();
    assert.equal(await runOn(pool, latest), '[{"v":2}]');
    // The worker holds version 2 now; version 1 is still live (`old` is held), so the query must see 1.
    assert.equal(await runOn(pool, old), '[{"v":1}]');
    own.release(old);
    own.release(latest);
  } finally {
    await pool.close();
    own.close();
  }
});

function runOn(pool: QueryPool, catalogVersion: number): Promise<string> {
  return new Promise((resolve, reject) => {
    pool.query(
      { sql: 'SELECT v FROM t', format: 'json', catalogVersion },
      {
        whole: (_head, body) => resolve(Buffer.from(body).toString()),
        head: () => {},
        chunk: (_body, ack) => ack(),
        end: () => reject(new Error('a one-row answer streamed')),
        error: (e) => reject(new Error(`${e.kind}: ${e.message}`)),
      },
    );
  });
}
