// Files mode over a rewritten file: the next scan opens it again (new rows, same or other size); other columns fail it.
import assert from 'node:assert/strict';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type Batch, cellText, createParquetTable, writeParquetFile } from '../../../../../engine/index.js';
import { makeTempDir } from '../../../../helpers/fixtures.js';

const INT32 = { id: 'int32' } as const;
const UTF8 = { id: 'utf8' } as const;

async function collectRows(batches: AsyncIterable<Batch>): Promise<(string | null)[][]> {
  const rows: (string | null)[][] = [];
  for await (const b of batches) for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => cellText(c, i)));
  return rows;
}

/** Writes (x) through a rename, as a writer that replaces a file does. */
async function write(path: string, values: number[], name = 'x', type: { id: string } = INT32): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeParquetFile(tmp, [
    { name, type, nullable: false, values: type === INT32 ? values : values.map(String) } as never,
  ]);
  await rename(tmp, path);
}

describe('a Parquet table over a rewritten file', () => {
  for (const decodeThreads of [0, 1]) {
    it(`reads the new version on the next scan (decode threads: ${decodeThreads})`, async () => {
      const dir = await makeTempDir();
      const path = join(dir, 't.parquet');
      try {
        await write(path, [1, 2, 3]);
        const table = await createParquetTable([path], { decodeThreads });
        const scan = async () =>
          collectRows(table.scan({ columns: ['x'], filters: [], limit: null }, new AbortController().signal));
        assert.deepEqual(await scan(), [['1'], ['2'], ['3']]);
        await write(path, [4, 5, 6, 7, 8]);
        assert.deepEqual(await scan(), [['4'], ['5'], ['6'], ['7'], ['8']]);
        assert.equal(table.statistics?.().rowCount, 5);
        await write(path, [9, 9, 9, 9, 9]); // maybe the same size: the etag tells
        assert.deepEqual(await scan(), [['9'], ['9'], ['9'], ['9'], ['9']]);
        await write(path, [1], 'y');
        await assert.rejects(scan(), { message: /t\.parquet was rewritten with other columns \(x\): restart/ });
        await write(path, [1], 'x', UTF8);
        await assert.rejects(scan(), { message: /t\.parquet was rewritten with other columns \(x\)/ });
        await rm(path);
        await assert.rejects(scan(), { message: /t\.parquet no longer exists/ });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
