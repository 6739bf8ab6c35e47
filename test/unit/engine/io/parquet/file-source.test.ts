// The file source: one-byte text columns are read as dictionaries and expanded to the written strings.
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parquetMetadata } from 'hyparquet';
import type { Batch } from '../../../../../engine/arrow/batch.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { ffiFields } from '../../../../../engine/arrow/from-ffi.js';
import { createEngine } from '../../../../../engine/index.js';
import { decodeRowGroup, openParquet } from '../../../../../engine/io/parquet/decode.js';
import { openFileSource, withDictionaryHints } from '../../../../../engine/io/parquet/file-source.js';
import { createParquetTable } from '../../../../../engine/io/parquet/parquet-table.js';
import { writeParquetFile } from '../../../../../engine/io/parquet/write.js';
import { createMapCatalog } from '../../../../../engine/map-catalog.js';

const ROWS = 3_000;
let dir: string;
let path: string;
const flag = Array.from({ length: ROWS }, (_, i) => 'ANR'[(i * 7) % 3]!);
// One-byte minimum and maximum, but a longer value in between: the hint holds, the one-byte shortcut does not.
const mixed = Array.from({ length: ROWS }, (_, i) => ['A', 'NO', 'Z'][i % 3]!);
const nullable = Array.from({ length: ROWS }, (_, i) => (i % 4 === 0 ? null : 'FO'[i % 2]!));
const word = Array.from({ length: ROWS }, (_, i) => `word ${i % 5}`);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-file-source-'));
  path = join(dir, 'flags.parquet');
  await writeParquetFile(
    path,
    [
      { name: 'id', type: { id: 'int32' }, values: Array.from({ length: ROWS }, (_, i) => i) },
      { name: 'flag', type: { id: 'utf8' }, values: flag },
      { name: 'mixed', type: { id: 'utf8' }, values: mixed },
      { name: 'nullable', type: { id: 'utf8' }, values: nullable },
      { name: 'word', type: { id: 'utf8' }, values: word },
    ],
    { rowGroupRows: 1_000 },
  );
});

after(() => rm(dir, { recursive: true, force: true }));

test('one-byte text columns are declared dictionaries; others keep their type', async () => {
  const file = await openParquet(path);
  const reads = new Map([...ffiFields(file.schema().intoIPCStream())].map(([name, f]) => [name, f?.read]));
  assert.deepEqual(Object.fromEntries(reads), {
    id: 'int32',
    flag: 'dictionary',
    mixed: 'dictionary',
    nullable: 'dictionary',
    word: 'utf8',
  });
});

test('dictionary columns decode to the written strings, nulls included, in every row group', async () => {
  const file = await openParquet(path);
  const columns = ['nullable', 'word', 'flag', 'mixed', 'id'];
  const want = [nullable, word, flag, mixed];
  for (const [rowGroup, limit] of [
    [0, null],
    [1, null],
    [2, 333],
  ] as const) {
    const rows = await decodeRowGroup(file, rowGroup, columns, limit);
    const got = columns.map((_, c) =>
      rows.flatMap((b) => Array.from({ length: b.length }, (_, i) => cellText(b.columns[c]!, i))),
    );
    const from = rowGroup * 1_000;
    const to = from + (limit ?? 1_000);
    for (const [c, values] of want.entries()) assert.deepEqual(got[c], values.slice(from, to), columns[c]);
    assert.deepEqual(
      got[4],
      Array.from({ length: to - from }, (_, i) => String(from + i)),
    );
  }
});

test('queries over dictionary columns group and filter on the strings', async () => {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', await createParquetTable([path])]])) });
  const rows: string[] = [];
  const sql = "SELECT flag, mixed, count(*), count(nullable) FROM t WHERE flag <> 'N' GROUP BY 1, 2 ORDER BY 1, 2";
  for await (const b of (await engine.execute(sql)).batches as AsyncIterable<Batch>)
    for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => cellText(c, i)).join('|'));
  const counts = new Map<string, [number, number]>();
  flag.forEach((f, i) => {
    if (f === 'N') return;
    const key = `${f}|${mixed[i]}`;
    const [n, m] = counts.get(key) ?? [0, 0];
    counts.set(key, [n + 1, m + (nullable[i] === null ? 0 : 1)]);
  });
  const want = [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, [n, m]]) => `${k}|${n}|${m}`);
  assert.deepEqual(rows, want);
});

test('the rewritten footer keeps every row group and column chunk of the original', async () => {
  const bytes = new Uint8Array(await readFile(path));
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  const footer = bytes.subarray(bytes.length - 8 - footerLength);
  const rewritten = withDictionaryHints(footer);
  assert.ok(rewritten !== null);
  const before = parquetMetadata(footer);
  const after = parquetMetadata(rewritten);
  assert.deepEqual(after.row_groups, before.row_groups);
  assert.deepEqual(after.schema, before.schema);
  assert.notDeepEqual(after.key_value_metadata, before.key_value_metadata);
  const source = await openFileSource(path);
  assert.equal(source.size, bytes.length - footer.length + rewritten.length);
  // A range across the end of the data reads the file, then the rewritten footer.
  const at = bytes.length - footer.length;
  const straddle = new Uint8Array(await source.slice(at - 16, at + 16).arrayBuffer());
  assert.deepEqual(straddle, Uint8Array.from([...bytes.subarray(at - 16, at), ...rewritten.subarray(0, 16)]));
});

test('a file without one-byte text columns is served unchanged', async () => {
  const plain = join(dir, 'plain.parquet');
  await writeParquetFile(plain, [{ name: 'w', type: { id: 'utf8' }, values: word }]);
  const bytes = await readFile(plain);
  const source = await openFileSource(plain);
  assert.equal(source.size, bytes.length);
  assert.deepEqual(Buffer.from(await source.slice(0).arrayBuffer()), bytes);
});

test('a file that shrinks under the source fails the read instead of returning short data', async () => {
  const gone = join(dir, 'shrinks.parquet');
  await writeParquetFile(gone, [{ name: 'x', type: { id: 'int32' }, values: [1, 2, 3] }]);
  const source = await openFileSource(gone);
  const fh = await open(gone, 'r+');
  await fh.truncate(10);
  await fh.close();
  await assert.rejects(source.slice(0, 20).arrayBuffer(), /ended at byte 10/);
});

/** How many of this process's file descriptors point at `file` (Linux). */
function openCount(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

test('reads close together share one handle, which closes once reads stop; a failed read drops it', async () => {
  // A file of its own: other tests' sources (and decode threads) may still hold the shared one for a moment.
  const own = join(dir, 'own.parquet');
  await writeFile(own, await readFile(path));
  const source = await openFileSource(own);
  const size = source.size;
  const parts = await Promise.all(
    [0, 1, 2, 3].map((k) => source.slice(Math.floor((k * size) / 4), Math.floor(((k + 1) * size) / 4)).arrayBuffer()),
  );
  const whole = Buffer.concat(parts.map((b) => new Uint8Array(b)));
  assert.equal(whole.length, size);
  assert.equal(openCount(own), 1);
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.equal(openCount(own), 0);

  const shrinking = join(dir, 'shrinks-then-grows.parquet');
  await writeParquetFile(shrinking, [{ name: 'x', type: { id: 'int32' }, values: [1, 2, 3] }]);
  const bytes = await readFile(shrinking);
  const again = await openFileSource(shrinking);
  const fh = await open(shrinking, 'r+');
  await fh.truncate(10);
  await assert.rejects(again.slice(0, 20).arrayBuffer(), /ended at byte 10/);
  await fh.write(bytes, 0, bytes.length, 0);
  await fh.close();
  // The next read opens afresh, and finds a rewritten file: refused, never read through the old footer.
  await assert.rejects(again.slice(0, 20).arrayBuffer(), /changed since floe opened it/);
  const reopened = await openFileSource(shrinking);
  assert.deepEqual(new Uint8Array(await reopened.slice(0, 20).arrayBuffer()), new Uint8Array(bytes.subarray(0, 20)));
});
