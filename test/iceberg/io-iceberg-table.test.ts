// The `iceberg` table kind: files pruned by bounds and partition values before any footer, scans, and writes.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import '../../catalog/providers/builtin.js';
import { deleteDataFiles, writeDataFiles } from '../../catalog/iceberg/data-file-writer.js';
import type { DataFile, IcebergSchema, PartitionSpec } from '../../catalog/iceberg/spec.js';
import { DEFAULT_TARGET_FILE_BYTES, type IcebergTableEntry } from '../../catalog/iceberg/table-entry.js';
import { connectWrites, serveWrites } from '../../catalog/iceberg/write-channel.js';
import type { WriteCall, WriteReply } from '../../catalog/iceberg/write-protocol.js';
import { buildProvider } from '../../catalog/providers/registry.js';
import { createEngine, createMapCatalog, ForbiddenError, PlanError, type TableProvider } from '../../engine/index.js';
import { queryRows } from '../helpers/engines.js';
import { batchesOf, batchOf, duck, filesUnder, floeOf, pathOfUri, tempDir } from './io-helpers.js';

const schema: IcebergSchema = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 1, name: 'id', required: true, type: 'long' },
    { id: 2, name: 'ts', required: false, type: 'timestamptz' },
    { id: 3, name: 'city', required: false, type: 'string' },
    { id: 4, name: 'amount', required: false, type: 'decimal(9, 2)' },
  ],
};
const floe = floeOf(schema);
const DAY = 86_400_000_000;
const T0 = 19_700; // 2023-12-09
const never = new AbortController().signal;
const CITIES = ['Oslo', 'Lima', 'Kyiv', 'Pune'];

const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return [i, (T0 + (i % 10)) * DAY + i * 1000, i % 17 === 0 ? null : CITIES[i % 4]!, (i * 37) % 10_000];
  });

function entry(
  name: string,
  location: string,
  files: DataFile[],
  spec: PartitionSpec,
  extra: Partial<IcebergTableEntry> = {},
): IcebergTableEntry {
  return {
    name,
    kind: 'iceberg',
    catalog: 'wh',
    location,
    metadataLocation: `${location}/metadata/v1.metadata.json`,
    schema,
    specs: [spec],
    specId: spec['spec-id'],
    snapshotId: 1,
    files,
    writable: false,
    targetFileBytes: DEFAULT_TARGET_FILE_BYTES,
    ...extra,
  };
}

async function table(
  name: string,
  spec: PartitionSpec,
  target = 1 << 30,
): Promise<{ provider: TableProvider; files: DataFile[] }> {
  const location = pathToFileURL(tempDir(`ice-${name}`)).href;
  const batches = [batchOf(floe, rows(0, 4000)), batchOf(floe, rows(4000, 4000))];
  const files = await writeDataFiles(
    batchesOf(batches),
    { location, schema, spec, targetFileBytes: target, rowGroupRows: 1000 },
    never,
  );
  return { provider: await buildProvider(entry(name, location, files, spec)), files };
}

const daySpec: PartitionSpec = {
  'spec-id': 1,
  fields: [{ 'source-id': 2, 'field-id': 1000, name: 'ts_day', transform: 'day' }],
};
const citySpec: PartitionSpec = {
  'spec-id': 2,
  fields: [{ 'source-id': 3, 'field-id': 1000, name: 'city', transform: 'identity' }],
};
const bucketSpec: PartitionSpec = {
  'spec-id': 3,
  fields: [{ 'source-id': 1, 'field-id': 1000, name: 'id_bucket', transform: 'bucket[4]' }],
};
const none: PartitionSpec = { 'spec-id': 0, fields: [] };

/** Each query on floe, its EXPLAIN's scan detail, and DuckDB's answer over every file of the table. */
async function check(provider: TableProvider, files: DataFile[], where: string, expectFiles: string) {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', provider]])) });
  const sql = `select count(*) as n, sum(id) as s, min(city) as c from t where ${where}`;
  const plan = (await queryRows(engine, `explain ${sql}`)).rows.map((r) => r[0]).join('\n');
  assert.match(plan, new RegExp(`files=${expectFiles}\\b`), plan);
  const got = (await queryRows(engine, sql)).rows[0];
  const list = files.map((f) => `'${pathOfUri(f.path)}'`).join(',');
  const [want] = await duck(
    `select count(*)::varchar n, sum(id)::varchar s, min(city) c from read_parquet([${list}]) where ${where}`,
  );
  assert.deepEqual(got, [want!.n, want!.s, want!.c], where);
}

test('a day-partitioned table: filters on the timestamp skip the other days', async () => {
  const { provider, files } = await table('day', daySpec);
  assert.equal(files.length, 10);
  assert.equal(provider.statistics().rowCount, 8000);
  const day = (d: number) => new Date((T0 + d) * 86_400_000).toISOString().slice(0, 10);
  await check(provider, files, `ts >= '${day(8)}T00:00:00Z'`, '2/10');
  await check(provider, files, `ts < '${day(3)}T00:00:00Z' and id > 10`, '3/10');
  await check(provider, files, `ts = '${day(4)}T00:00:00.004Z'`, '1/10');
  await check(provider, files, 'id >= 0', '10/10');
});

test('an identity-partitioned table prunes on its values; the NULL partition only for IS NULL', async () => {
  const { provider, files } = await table('city', citySpec);
  assert.equal(files.length, 5);
  await check(provider, files, `city = 'Lima'`, '1/5');
  await check(provider, files, `city in ('Lima', 'Kyiv')`, '2/5');
  await check(provider, files, 'city is null', '1/5');
});

test('a bucketed table prunes equalities on the bucketed column', async () => {
  const { provider, files } = await table('bucket', bucketSpec);
  assert.equal(files.length, 4);
  await check(provider, files, 'id = 1234', '1/4');
  await check(provider, files, 'id in (1, 2)', '[12]/4');
  // Bounds prune too: a bucket whose smallest id is 5 or more is skipped.
  await check(provider, files, 'id < 5', '[1-4]/4');
});

test('an unpartitioned table rolled into files prunes on column bounds', async () => {
  const { provider, files } = await table('bounds', none, 4096);
  const n = files.length;
  assert.ok(n >= 4, `${n} files`);
  await check(provider, files, 'id < 100', `1/${n}`);
  await check(provider, files, 'id > 100000', `0/${n}`);
  await check(provider, files, `amount > 99.98 and id >= 7000`, `[1-${n}]/${n}`);
});

test('a table with no snapshot reads as empty', async () => {
  const location = pathToFileURL(tempDir('ice-empty')).href;
  const provider = await buildProvider(entry('empty', location, [], none, { snapshotId: null }));
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', provider]])) });
  assert.deepEqual((await queryRows(engine, 'select count(*), sum(id) from t')).rows, [['0', null]]);
  const plan = (await queryRows(engine, 'explain select * from t')).rows.join('\n');
  assert.match(plan, /files=0\/0/);
  assert.equal(provider.statistics().rowCount, 0);
});

test('writes: committed through the main thread, refused commits and read-only tables leave no file', async () => {
  const channel = `ice-io-test-${randomUUID()}`;
  const calls: WriteCall[] = [];
  let answer: WriteReply = { ok: true, version: 7 };
  const stop = serveWrites(channel, async (call) => {
    calls.push(call);
    return answer;
  });
  after(stop);
  connectWrites(channel);
  const dir = tempDir('ice-write');
  const location = pathToFileURL(dir).href;
  const writable = await buildProvider(entry('wh.s.t', location, [], daySpec, { writable: true, snapshotId: null }));
  const n = await writable.write!(batchesOf([batchOf(floe, rows(0, 500))]), 'append', never);
  assert.equal(n, 500);
  assert.equal(calls.length, 1);
  const call = calls[0]!;
  assert.ok(call.op === 'commit' && call.table === 'wh.s.t' && call.mode === 'append');
  const files = (call as Extract<WriteCall, { op: 'commit' }>).files;
  assert.equal(files.length, 10);
  assert.equal(
    files.reduce((k, f) => k + f.recordCount, 0),
    500,
  );
  for (const f of files) assert.ok(existsSync(pathOfUri(f.path)), f.path);
  await deleteDataFiles(files.map((f) => f.path));

  answer = { ok: false, kind: 'plan', message: 'table wh.s.t is not empty' };
  await assert.rejects(
    writable.write!(batchesOf([batchOf(floe, rows(0, 500))]), 'error_if_not_empty', never),
    (e: unknown) => {
      assert.ok(e instanceof PlanError);
      assert.equal((e as Error).message, 'table wh.s.t is not empty');
      return true;
    },
  );
  assert.equal(calls.length, 2);
  assert.deepEqual(filesUnder(dir), []);

  const readOnly = await buildProvider(entry('wh.s.r', location, [], none));
  await assert.rejects(readOnly.write!(batchesOf([batchOf(floe, rows(0, 5))]), 'append', never), (e: unknown) => {
    assert.ok(e instanceof ForbiddenError);
    assert.match((e as Error).message, /catalog wh is read-only/);
    return true;
  });
  assert.deepEqual(filesUnder(dir), []);
});

test('every writable type reads back through the provider as written', async () => {
  const all: IcebergSchema = {
    type: 'struct',
    'schema-id': 0,
    fields: [
      { id: 1, name: 'id', required: true, type: 'int' },
      { id: 2, name: 'big', required: false, type: 'long' },
      { id: 3, name: 'd', required: false, type: 'decimal(38, 3)' },
      { id: 4, name: 'day', required: false, type: 'date' },
      { id: 5, name: 'ts', required: false, type: 'timestamp' },
      { id: 6, name: 'tz', required: false, type: 'timestamptz' },
      { id: 7, name: 's', required: false, type: 'string' },
      { id: 8, name: 'b', required: false, type: 'boolean' },
      { id: 9, name: 'x', required: false, type: 'double' },
      { id: 10, name: 'f', required: false, type: 'float' },
    ],
  };
  const location = pathToFileURL(tempDir('ice-types')).href;
  const data = [
    [1, -(2n ** 62n), 123456789n, 19_700, 1_702_080_000_000_001, -1, 'naïve ☕', true, -0.5, 1.25],
    [2, null, null, null, null, null, null, null, null, null],
    [3, 5n, -1n, -1, 0, 0, '', false, 1e300, -2],
  ];
  const files = await writeDataFiles(
    batchesOf([batchOf(floeOf(all), data)]),
    { location, schema: all, spec: none, targetFileBytes: 1 << 20 },
    never,
  );
  const provider = await buildProvider({ ...entry('types', location, files, none), schema: all });
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', provider]])) });
  const got = await queryRows(engine, 'select * from t order by id');
  assert.deepEqual(
    got.types.map((t) => t.id),
    ['int32', 'int64', 'decimal', 'date', 'timestamp', 'timestamp', 'utf8', 'bool', 'float64', 'float64'],
  );
  assert.deepEqual(got.types.slice(4, 6), [
    { id: 'timestamp', tz: null },
    { id: 'timestamp', tz: 'UTC' },
  ]);
  assert.deepEqual(got.rows, [
    [
      '1',
      '-4611686018427387904',
      '123456.789',
      '2023-12-09',
      '2023-12-09 00:00:00.000001',
      '1969-12-31 23:59:59.999999',
      'naïve ☕',
      'true',
      '-0.5',
      '1.25',
    ],
    ['2', null, null, null, null, null, null, null, null, null],
    ['3', '5', '-0.001', '1969-12-31', '1970-01-01 00:00:00', '1970-01-01 00:00:00', '', 'false', '1e+300', '-2'],
  ]);
});

test('a partition transform floe does not know is left out of pruning instead of failing the read', async () => {
  const { files } = await table('unknown', citySpec);
  const odd: PartitionSpec = { 'spec-id': 2, fields: [{ ...citySpec.fields[0]!, transform: 'zorder[3]' }] };
  const location = pathToFileURL(tempDir('ice-odd')).href;
  const provider = await buildProvider({ ...entry('odd', location, files, odd) });
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', provider]])) });
  const plan = (await queryRows(engine, `explain select count(*) from t where city = 'Lima'`)).rows.join('\n');
  // The column bounds still prune (the city files hold one value each; the NULL file has no value at all).
  assert.match(plan, /files=1\/5/);
  assert.deepEqual((await queryRows(engine, `select count(*) from t where city = 'Lima'`)).rows, [['1882']]);
});
