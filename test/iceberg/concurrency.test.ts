// Concurrent commits to one table: within one process (the table lock) and from two processes (the conditional put).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitFiles, createTable } from '../../catalog/iceberg/commit.js';
import { liveDataFiles } from '../../catalog/iceberg/live-files.js';
import { currentSnapshot } from '../../catalog/iceberg/metadata.js';
import { readCurrent } from '../../catalog/iceberg/warehouse.js';
import { objectStoreFor } from '../../engine/index.js';
import { startAppender } from './appender.js';
import { expectedRows, icebirdRows, range, SCHEMA, tempWarehouse, writeDataFile } from './helpers.js';

describe('Iceberg concurrent commits', () => {
  let wh: Awaited<ReturnType<typeof tempWarehouse>>;
  before(async () => {
    wh = await tempWarehouse();
  });
  after(() => wh.dispose());

  it('lands 8 concurrent commits of one process, none lost', async () => {
    const table = `${wh.url}/s/eight`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    const files = await Promise.all(range(0, 7).map((i) => writeDataFile(table, range(i * 10, i * 10 + i))));
    const results = await Promise.all(files.map((f) => commitFiles(store, table, 'append', [f])));
    assert.deepEqual(
      results.map((r) => r.version).sort((a, b) => a - b),
      range(2, 9),
    );
    const current = (await readCurrent(store, table))!;
    assert.equal(current.version, 9);
    const total = files.reduce((n, f) => n + f.recordCount, 0);
    assert.equal(currentSnapshot(current.metadata)!.summary['total-records'], String(total));
    assert.equal((await liveDataFiles(store, current.metadata)).length, 8);
    assert.deepEqual(await icebirdRows(table), expectedRows(files.flatMap((_, i) => range(i * 10, i * 10 + i))));
  });

  it('lands every append of two processes racing on one local table (link fails on the loser, who retries)', async (t) => {
    const table = `${wh.url}/s/two`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    const count = 12;
    const a = startAppender(table, { count, first: 0, rows: 3 });
    const b = startAppender(table, { count, first: 1000, rows: 3 });
    assert.deepEqual(await Promise.all([a.exited, b.exited]), [0, 0]);
    const current = (await readCurrent(store, table))!;
    assert.equal(current.version, 1 + 2 * count);
    assert.equal(currentSnapshot(current.metadata)!.summary['total-records'], String(2 * count * 3));
    assert.equal((await liveDataFiles(store, current.metadata)).length, 2 * count);
    const ids = [...range(0, count * 3 - 1), ...range(1000, 1000 + count * 3 - 1)];
    assert.deepEqual(await icebirdRows(table), expectedRows(ids));
    // Each child's `stats <commits> <conflicts>`: how often the other won a version first (reported, not asserted).
    const conflicts = [a, b].map((c) => Number(c.lines.at(-1)!.split(' ')[2]));
    t.diagnostic(`two-process appends: ${2 * count} commits, ${conflicts[0]! + conflicts[1]!} lost races retried`);
  });

  it('commits appends and an overwrite concurrently in one process in some serial order', async () => {
    const table = `${wh.url}/s/mixed`;
    const store = objectStoreFor(table);
    await createTable(store, table, SCHEMA, []);
    const [a, b, c] = await Promise.all(
      [range(1, 2), range(3, 4), range(5, 6)].map((ids) => writeDataFile(table, ids)),
    );
    await Promise.all([
      commitFiles(store, table, 'append', [a!]),
      commitFiles(store, table, 'overwrite', [b!]),
      commitFiles(store, table, 'append', [c!]),
    ]);
    // Commits run in call order under the table lock: a, then b replaces it, then c.
    const current = (await readCurrent(store, table))!;
    const live = (await liveDataFiles(store, current.metadata)).map((f) => f.path).sort();
    assert.deepEqual(live, [b!.path, c!.path].sort());
  });
});
