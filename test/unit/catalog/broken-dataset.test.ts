// A Parquet file that disappears after start fails the queries that read it, with a clear error, and only those.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { catalogFromSnapshot } from '../../../catalog/snapshot.js';
import { cellText, createEngine, writeParquetFile } from '../../../engine/index.js';

async function firstCell(engine: ReturnType<typeof createEngine>, sql: string): Promise<string | null> {
  const result = await engine.execute(sql);
  for await (const b of result.batches) if (b.length > 0) return cellText(b.columns[0]!, 0);
  return null;
}

test('a deleted file fails its own table and leaves the others serving', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'floe-broken-'));
  try {
    const a = join(dir, 'a.parquet');
    const b = join(dir, 'b.parquet');
    await writeParquetFile(a, [{ name: 'x', type: { id: 'int32' }, values: [1, 2, 3] }]);
    await writeParquetFile(b, [{ name: 'y', type: { id: 'int32' }, values: [4, 5] }]);
    const snapshot = {
      tables: [
        { name: 'a', kind: 'parquet' as const, files: [a] },
        { name: 'b', kind: 'parquet' as const, files: [b] },
      ],
    };

    // Deleted after the worker opened the table: the scan reports it instead of trapping in the decoder.
    const opened = createEngine({ catalog: await catalogFromSnapshot(snapshot) });
    await rm(a);
    await assert.rejects(firstCell(opened, 'SELECT sum(x) FROM a'), { kind: 'exec', message: /no longer exists/ });
    assert.equal(await firstCell(opened, 'SELECT sum(y) FROM b'), '9');

    // Deleted before a (replacement) worker builds its catalog: that dataset errors, the rest answer.
    const rebuilt = createEngine({ catalog: await catalogFromSnapshot(snapshot) });
    await assert.rejects(firstCell(rebuilt, 'SELECT x FROM a'), {
      kind: 'exec',
      message: /dataset "a" cannot be read/,
    });
    assert.equal(await firstCell(rebuilt, 'SELECT count(*) FROM b'), '2');
    assert.equal(await firstCell(rebuilt, 'SELECT 1'), '1');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
