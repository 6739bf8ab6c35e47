// Planned reads over S3: a selective query fetches the footer once and only its surviving row groups' column
// chunks (far fewer bytes than the file); a full scan fetches about the file once; answers equal local reads.
import assert from 'node:assert/strict';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createEngine,
  createMapCatalog,
  createParquetTable,
  s3ReadStats,
  type TableProvider,
} from '../../../../../engine/index.js';
import { readFileFooter } from '../../../../../engine/io/parquet/file-footer.js';
import { coalesce, planChunkRanges } from '../../../../../engine/io/parquet/plan-ranges.js';
import { queryRows } from '../../../../helpers/engines.js';
import { makeTempDir } from '../../../../helpers/fixtures.js';
import { writeTrips } from '../../../../helpers/s3-data.js';
import { type S3TestServer, startS3Server } from '../../../../helpers/s3-server.js';

const ROWS = 100_000;
const LOCATION = 's3://data/trips.parquet';

let s3: S3TestServer;
let dir: string;
let fileSize: number;
let remote: TableProvider;
let local: TableProvider;

before(async () => {
  dir = await makeTempDir('floe-s3-planned-');
  s3 = await startS3Server(['data']);
  const path = join(dir, 'trips.parquet');
  await writeTrips(path, 0, ROWS, 2000);
  fileSize = (await stat(path)).size;
  await s3.upload(LOCATION, path);
  // DuckDB rounds row groups up to 2,048 rows: 49 of them. Decoded on this thread, so this thread's counter sees
  // every byte the scan fetched.
  remote = await createParquetTable([LOCATION], { decodeThreads: 0, s3: s3.config });
  local = await createParquetTable([path], { decodeThreads: 0 });
});

after(async () => {
  await s3?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const engineOver = (t: TableProvider) => createEngine({ catalog: createMapCatalog(new Map([['trips', t]])) });

/** The query's rows, and the bytes and GETs it fetched from S3. */
async function measured(sql: string) {
  const before = { ...s3ReadStats };
  const rows = (await queryRows(engineOver(remote), sql)).rows;
  return { rows, bytes: s3ReadStats.bytes - before.bytes, requests: s3ReadStats.requests - before.requests };
}

describe('planned reads over S3', () => {
  it('a selective query (1 of 49 row groups, 2 of 5 columns) fetches under 5% of the file, in few requests', async () => {
    const sql = 'SELECT count(*), sum(amount) FROM trips WHERE id < 2000';
    const got = await measured(sql);
    assert.deepEqual(got.rows, (await queryRows(engineOver(local), sql)).rows);
    assert.ok(got.bytes < fileSize * 0.05, `${got.bytes} of ${fileSize} bytes`);
    // One row group's two chunks, coalesced: one GET (the footer was read when the table opened).
    assert.ok(got.requests <= 2, `${got.requests} requests`);
  });

  it('a full scan fetches the file once, one request per row group', async () => {
    const sql = 'SELECT count(*), sum(amount), max(note), min(day), count(DISTINCT grp), max(id) FROM trips';
    const got = await measured(sql);
    assert.deepEqual(got.rows, (await queryRows(engineOver(local), sql)).rows);
    // Everything but the footer (read when the table opened) and the leading magic bytes.
    assert.ok(got.bytes <= fileSize && got.bytes > fileSize * 0.95, `${got.bytes} of ${fileSize} bytes`);
    assert.ok(got.requests <= 49, `${got.requests} requests for 49 row groups`);
  });

  it('reads a footer once per file version and thread', async () => {
    const before = { ...s3ReadStats };
    await createParquetTable([LOCATION], { decodeThreads: 0, s3: s3.config });
    assert.equal(s3ReadStats.requests - before.requests, 0, 'the footer came from the cache (heads are not GETs)');
  });

  it('plans the chunks of the asked columns, coalescing those less than 1 MiB apart', async () => {
    const { metadata } = await readFileFooter(LOCATION, s3.config);
    const ranges = planChunkRanges(metadata!, 3, ['id', 'note']);
    const chunks = metadata!.row_groups[3]!.columns.filter((c) =>
      ['id', 'note'].includes(c.meta_data!.path_in_schema[0]!),
    );
    const first = Number(chunks[0]!.meta_data!.dictionary_page_offset ?? chunks[0]!.meta_data!.data_page_offset);
    assert.equal(ranges.length, 1);
    assert.equal(ranges[0]!.offset, first);
    const far = coalesce([
      { offset: 0, length: 10 },
      { offset: 25 + (1 << 20), length: 5 },
      { offset: 20, length: 5 },
    ]);
    assert.deepEqual(far, [
      { offset: 0, length: 25 },
      { offset: 25 + (1 << 20), length: 5 },
    ]);
  });
});
