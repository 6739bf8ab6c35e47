// writeDataFiles: Parquet data files with Iceberg metrics, rolled at the target size, one per partition, no leftovers.
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { compareCodePoints, FileMetrics } from '../../catalog/iceberg/column-stats.js';
import { deleteDataFiles, writeDataFiles } from '../../catalog/iceberg/data-file-writer.js';
import type { IcebergSchema, PartitionSpec } from '../../catalog/iceberg/spec.js';
import type { Batch } from '../../engine/arrow/batch.js';
import { makeColumn } from '../../engine/arrow/column.js';
import { batchesOf, batchOf, duck, filesUnder, floeOf, pathOfUri, tempDir } from './io-helpers.js';

const schema: IcebergSchema = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 'amount', required: false, type: 'decimal(9, 2)' },
    { id: 3, name: 'day', required: false, type: 'date' },
    { id: 4, name: 'ts', required: false, type: 'timestamptz' },
    { id: 5, name: 'name', required: false, type: 'string' },
    { id: 6, name: 'x', required: false, type: 'double' },
    { id: 7, name: 'flag', required: false, type: 'boolean' },
    { id: 8, name: 'n', required: false, type: 'int' },
  ],
};
const floe = floeOf(schema);
const unpartitioned: PartitionSpec = { 'spec-id': 0, fields: [] };
const DAY = 86_400_000_000;
const never = new AbortController().signal;

const location = (name: string) => pathToFileURL(tempDir(name)).href;

test('one file with field ids, rows and metrics (bounds, null/NaN counts, -0.0 before 0.0, code point order)', async () => {
  const loc = location('dfw-stats');
  const rows = [
    [1, 1420, 17486, 17486 * DAY + 1, 'héllo', -0, true, 3],
    [2, -5, null, null, '😀 smile', Number.NaN, false, null],
    [3, null, -1, -DAY, 'zebra-ï', 0, null, -7],
    [4, 99, 0, 0, null, 2.5, true, 9],
  ];
  const files = await writeDataFiles(
    batchesOf([batchOf(floe, rows.slice(0, 2)), batchOf(floe, rows.slice(2))]),
    { location: loc, schema, spec: unpartitioned, targetFileBytes: 1 << 20 },
    never,
  );
  assert.equal(files.length, 1);
  const f = files[0]!;
  assert.ok(f.path.startsWith(`${loc}/data/`) && f.path.endsWith('.parquet'), f.path);
  assert.equal(f.recordCount, 4);
  assert.equal(f.fileSizeBytes, statSync(pathOfUri(f.path)).size);
  assert.deepEqual(f.partition, []);
  assert.deepEqual(f.valueCounts, { 1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4 });
  assert.deepEqual(f.nullValueCounts, { 1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0, 7: 1, 8: 1 });
  assert.deepEqual(f.nanValueCounts, { 6: 1 });
  assert.deepEqual(f.lowerBounds, { 1: 1n, 2: -5n, 3: -1, 4: -BigInt(DAY), 5: 'héllo', 6: -0, 7: false, 8: -7 });
  assert.deepEqual(f.upperBounds, {
    1: 4n,
    2: 1420n,
    3: 17486,
    4: BigInt(17486 * DAY + 1),
    5: '😀 smile',
    6: 2.5,
    7: true,
    8: 9,
  });
  assert.ok(Object.is(f.lowerBounds![6], -0));
  const path = pathOfUri(f.path);
  const ids = await duck(`select name, field_id::int id from parquet_schema('${path}') where field_id is not null`);
  assert.deepEqual(
    ids.map((r) => [r.name, r.id]),
    schema.fields.map((c) => [c.name, c.id]),
  );
  const [kv] = await duck(
    `select decode(value) v from parquet_kv_metadata('${path}') where decode(key) = 'iceberg.schema'`,
  );
  assert.deepEqual(JSON.parse(kv!.v as string), schema);
  const back = await duck(
    `select id::int id, amount::varchar a, "day"::varchar d, name, flag from '${path}' order by id`,
  );
  assert.deepEqual(
    back.map((r) => [r.id, r.a, r.d, r.name, r.flag]),
    [
      [1, '14.20', '2017-11-16', 'héllo', true],
      [2, '-0.05', null, '😀 smile', false],
      [3, null, '1969-12-31', 'zebra-ï', null],
      [4, '0.99', '1970-01-01', null, true],
    ],
  );
});

test('string bounds keep 16 code points; the upper one is incremented', async () => {
  const loc = location('dfw-trunc');
  const s = (name: string) => [1, null, null, null, name, null, null, null];
  const files = await writeDataFiles(
    batchesOf([batchOf(floe, [s('aaaaaaaaaaaaaaaaaaaa'), s('bbbbbbbbbbbbbbbbzzz')])]),
    { location: loc, schema, spec: unpartitioned, targetFileBytes: 1 << 20 },
    never,
  );
  assert.equal(files[0]!.lowerBounds![5], 'aaaaaaaaaaaaaaaa');
  assert.equal(files[0]!.upperBounds![5], 'bbbbbbbbbbbbbbbc');
});

function manyRows(n: number, start = 0): Batch {
  return batchOf(
    floe,
    Array.from({ length: n }, (_, k) => {
      const i = start + k;
      return [
        i,
        (i * 7919) % 100_000,
        19_000 + (i % 5),
        (19_000 + (i % 5)) * DAY + i,
        `name-${(i * 31) % 977}`,
        i / 3,
        i % 2 === 0,
        i % 1000,
      ];
    }),
  );
}

test('files roll at the target size: each at most the target plus one row group', async () => {
  const loc = location('dfw-roll');
  const target = 64 * 1024;
  const batches = Array.from({ length: 10 }, (_, b) => manyRows(5000, b * 5000));
  const files = await writeDataFiles(
    batchesOf(batches),
    { location: loc, schema, spec: unpartitioned, targetFileBytes: target, rowGroupRows: 1000 },
    never,
  );
  assert.ok(files.length >= 4, `${files.length} files`);
  const rowGroupBytes = await duck(
    `select max(total_compressed_size)::int m from (select row_group_id, file_name, sum(total_compressed_size) total_compressed_size from parquet_metadata([${files.map((f) => `'${pathOfUri(f.path)}'`).join(',')}]) group by all)`,
  );
  const maxGroup = rowGroupBytes[0]!.m as number;
  for (const f of files)
    assert.ok(
      f.fileSizeBytes <= target + 2 * maxGroup + 16 * 1024,
      `${f.fileSizeBytes} > ${target} + one group (${maxGroup})`,
    );
  assert.equal(
    files.reduce((n, f) => n + f.recordCount, 0),
    50_000,
  );
  const list = files.map((f) => `'${pathOfUri(f.path)}'`).join(',');
  const [r] = await duck(
    `select count(*)::int n, sum(id)::varchar s, count(distinct id)::int d from read_parquet([${list}])`,
  );
  assert.deepEqual(r, { n: 50_000, s: String((49_999 * 50_000) / 2), d: 50_000 });
});

test('partitioned writes: one file per partition tuple, Java-style folders, rows of that partition only', async () => {
  const loc = location('dfw-part');
  const spec: PartitionSpec = {
    'spec-id': 3,
    fields: [
      { 'source-id': 4, 'field-id': 1000, name: 'ts_day', transform: 'day' },
      { 'source-id': 7, 'field-id': 1001, name: 'flag', transform: 'identity' },
      { 'source-id': 1, 'field-id': 1002, name: 'id_bucket', transform: 'bucket[2]' },
    ],
  };
  const write = (maxOpenFiles: number) =>
    writeDataFiles(
      batchesOf([manyRows(3000), manyRows(3000, 3000)]),
      { location: loc, schema, spec, targetFileBytes: 1 << 30, maxOpenFiles },
      never,
    );
  // Fewer files open than partitions: the least recently written is finished, and its partition gets another file.
  const bounded = await write(4);
  assert.ok(bounded.length > 20, `${bounded.length}`);
  assert.equal(
    bounded.reduce((n, f) => n + f.recordCount, 0),
    6000,
  );
  await deleteDataFiles(bounded.map((f) => f.path));
  const files = await write(20);
  // 5 days x 2 flags x 2 buckets = 20 partitions, each written once.
  assert.equal(files.length, 20);
  assert.equal(
    new Set(files.map((f) => JSON.stringify(f.partition, (_, v) => (typeof v === 'bigint' ? String(v) : v)))).size,
    20,
  );
  assert.equal(
    files.reduce((n, f) => n + f.recordCount, 0),
    6000,
  );
  for (const f of files) {
    assert.equal(f.specId, 3);
    const [day, flag, bucket] = f.partition as [number, boolean, number];
    const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
    assert.ok(f.path.includes(`/data/ts_day=${date}/flag=${flag}/id_bucket=${bucket}/`), f.path);
    const [r] = await duck(
      `select count(*)::int n, min(ts::date)::varchar lo, max(ts::date)::varchar hi, bool_and(flag = ${flag}) same from '${pathOfUri(f.path)}'`,
    );
    assert.deepEqual(r, { n: f.recordCount, lo: date, hi: date, same: true });
  }
});

test('a write that fails mid-stream, or is aborted, leaves no file behind', async () => {
  const loc = location('dfw-fail');
  async function* failing(): AsyncIterable<Batch> {
    for (let b = 0; b < 6; b++) yield manyRows(5000, b * 5000);
    throw new Error('source failed');
  }
  const options = { location: loc, schema, spec: unpartitioned, targetFileBytes: 32 * 1024, rowGroupRows: 1000 };
  await assert.rejects(writeDataFiles(failing(), options, never), /source failed/);
  assert.deepEqual(existsSync(pathOfUri(loc)) ? filesUnder(pathOfUri(loc)) : [], []);
  const abort = new AbortController();
  async function* aborting(): AsyncIterable<Batch> {
    for (let b = 0; b < 6; b++) yield manyRows(5000, b * 5000);
    abort.abort();
    yield manyRows(10);
  }
  await assert.rejects(writeDataFiles(aborting(), options, abort.signal), /cancelled/);
  assert.deepEqual(filesUnder(pathOfUri(loc)), []);
  // deleteDataFiles tolerates files already gone.
  await deleteDataFiles([`${loc}/data/none.parquet`]);
});

test('string bounds follow code point order for JS strings and UTF-8 bytes alike', () => {
  const strs = ['a\uFFFD', 'a😀', 'a', 'b\uE000x'];
  const js = new FileMetrics([{ id: 1, type: 'string' }]);
  js.add([makeColumn({ id: 'utf8' }, strs, null, 4)], 4);
  const enc = strs.map((x) => new TextEncoder().encode(x));
  const offsets = Int32Array.from([0, ...enc.map((_, i) => enc.slice(0, i + 1).reduce((n, e) => n + e.length, 0))]);
  const bytes = new Uint8Array(offsets[4]!);
  for (const [i, e] of enc.entries()) bytes.set(e, offsets[i]!);
  const utf8 = new FileMetrics([{ id: 1, type: 'string' }]);
  utf8.add([makeColumn({ id: 'utf8' }, { offsets, bytes }, null, 4)], 4);
  for (const m of [js, utf8]) {
    assert.equal(m.result().lowerBounds[1], 'a');
    assert.equal(m.result().upperBounds[1], 'b\uE000x');
  }
  const two = new FileMetrics([{ id: 1, type: 'string' }]);
  two.add([makeColumn({ id: 'utf8' }, ['a\uFFFD', 'a😀'], null, 2)], 2);
  assert.equal(two.result().upperBounds[1], 'a😀');
  assert.ok(compareCodePoints('a😀', 'a\uFFFD') > 0 && compareCodePoints('a\uFFFD', 'a😀') < 0);
});
