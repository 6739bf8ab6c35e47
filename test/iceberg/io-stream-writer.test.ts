// The streaming Parquet writer: files DuckDB reads back with Iceberg field ids, types and the same rows.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Batch } from '../../engine/arrow/batch.js';
import { makeColumn } from '../../engine/arrow/column.js';
import { type DataType, type ParquetColumnSpec, ParquetStreamWriter } from '../../engine/index.js';
import { duck } from './io-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'floe-io-writer-'));

const specs: ParquetColumnSpec[] = [
  { name: 'id', type: { id: 'int64' }, nullable: false, fieldId: 1 },
  { name: 'i', type: { id: 'int32' }, nullable: true, fieldId: 2 },
  { name: 'd9', type: { id: 'decimal', precision: 9, scale: 2 }, nullable: true, fieldId: 3 },
  { name: 'd18', type: { id: 'decimal', precision: 18, scale: 4 }, nullable: true, fieldId: 4 },
  { name: 'd38', type: { id: 'decimal', precision: 38, scale: 0 }, nullable: true, fieldId: 5 },
  { name: 'day', type: { id: 'date' }, nullable: true, fieldId: 6 },
  { name: 'ts', type: { id: 'timestamp', tz: null }, nullable: true, fieldId: 7 },
  { name: 'tstz', type: { id: 'timestamp', tz: 'UTC' }, nullable: true, fieldId: 8 },
  { name: 's', type: { id: 'utf8' }, nullable: true, fieldId: 9 },
  { name: 'b', type: { id: 'bool' }, nullable: true, fieldId: 10 },
  { name: 'x', type: { id: 'float64' }, nullable: true, fieldId: 11 },
  { name: 'f', type: { id: 'float64' }, nullable: true, fieldId: 12, float32: true },
];

const col = (type: DataType, values: unknown, valid: number[] | null, n: number) =>
  makeColumn(type, values as never, valid === null ? null : Uint8Array.from(valid), n);

function sampleBatch(): Batch {
  const n = 3;
  const t = (i: number) => specs[i]!.type;
  const utf8 = new TextEncoder().encode('xxhéllo😀ok');
  return {
    schema: { fields: specs.map((s) => ({ name: s.name, qualifier: null, type: s.type, nullable: s.nullable })) },
    length: n,
    columns: [
      col(t(0), BigInt64Array.of(1n, -(2n ** 62n), 2n ** 62n), null, n),
      col(t(1), Int32Array.of(7, 0, -7), [1, 0, 1], n),
      col(t(2), Float64Array.of(1420, -5, 0), [1, 1, 0], n),
      col(t(3), Float64Array.of(123456789012, -1, 0), [1, 1, 0], n),
      col(t(4), BigInt64Array.of(9_000_000_000_000_000_000n, -1n, 0n), [1, 1, 0], n),
      col(t(5), Int32Array.of(17486, -1, 0), [1, 1, 0], n),
      col(t(6), Float64Array.of(1510871468000001, -1, 0), [1, 1, 0], n),
      col(t(7), Float64Array.of(1510871468000001, -86_400_000_000, 0), [1, 1, 0], n),
      // Sliced UTF-8 bytes: offsets do not start at 0.
      col(t(8), { offsets: Int32Array.of(2, 8, 12, 14), bytes: utf8 }, [1, 1, 0], n),
      col(t(9), Uint8Array.of(1, 0, 0), [1, 1, 0], n),
      col(t(10), Float64Array.of(-0, Number.NaN, 0), [1, 1, 0], n),
      col(t(11), Float64Array.of(1.5, -2.25, 0), [1, 0, 1], n),
    ],
  };
}

test('types, NULLs and field ids read back through DuckDB', async () => {
  const w = new ParquetStreamWriter(specs, { keyValueMetadata: { 'iceberg.schema': '{"type":"struct"}' } });
  await w.write(sampleBatch());
  await w.write({ ...sampleBatch(), columns: sampleBatch().columns.map((c) => ({ ...c, values: c.values })) });
  const bytes = await w.close();
  const path = join(dir, 'types.parquet');
  writeFileSync(path, bytes);
  const schema = await duck(
    `select name, type, logical_type, field_id from parquet_schema('${path}') where field_id is not null`,
  );
  assert.deepEqual(
    schema.map((r) => [r.name, r.type, Number(r.field_id)]),
    specs.map((s, i) => [
      s.name,
      [
        'INT64',
        'INT32',
        'INT32',
        'INT64',
        'FIXED_LEN_BYTE_ARRAY',
        'INT32',
        'INT64',
        'INT64',
        'BYTE_ARRAY',
        'BOOLEAN',
        'DOUBLE',
        'FLOAT',
      ][i],
      i + 1,
    ]),
  );
  const logical = Object.fromEntries(schema.map((r) => [r.name, String(r.logical_type)]));
  assert.match(logical.ts!, /isAdjustedToUTC=0.*MICROS|MICROS.*isAdjustedToUTC=0/i);
  assert.match(logical.tstz!, /isAdjustedToUTC=1/i);
  assert.match(logical.d9!, /precision=9/);
  const kv = await duck(`select decode(key) k, decode(value) v from parquet_kv_metadata('${path}')`);
  assert.ok(kv.some((r) => r.k === 'iceberg.schema' && r.v === '{"type":"struct"}'));
  const meta = await duck(`select distinct compression from parquet_metadata('${path}')`);
  assert.deepEqual(
    meta.map((r) => r.compression),
    ['ZSTD'],
  );
  const rows = await duck(
    `select id::varchar id, i, d9::varchar d9, d18::varchar d18, d38::varchar d38, "day"::varchar "day", ts::varchar ts, (tstz at time zone 'UTC')::varchar tstz, s, b, x::varchar x, f from '${path}'`,
  );
  assert.equal(rows.length, 6);
  assert.deepEqual(rows[0], {
    id: '1',
    i: 7,
    d9: '14.20',
    d18: '12345678.9012',
    d38: '9000000000000000000',
    day: '2017-11-16',
    ts: '2017-11-16 22:31:08.000001',
    tstz: '2017-11-16 22:31:08.000001',
    s: 'héllo',
    b: true,
    x: '-0.0',
    f: 1.5,
  });
  assert.deepEqual(rows[1], {
    id: '-4611686018427387904',
    i: null,
    d9: '-0.05',
    d18: '-0.0001',
    d38: '-1',
    day: '1969-12-31',
    ts: '1969-12-31 23:59:59.999999',
    tstz: '1969-12-31 00:00:00',
    s: '😀',
    b: false,
    x: 'nan',
    f: null,
  });
  assert.deepEqual(rows[2], {
    id: '4611686018427387904',
    i: -7,
    d9: null,
    d18: null,
    d38: null,
    day: null,
    ts: null,
    tstz: null,
    s: null,
    b: null,
    x: null,
    f: 0,
  });
});

test('row groups are encoded as batches arrive: bytesWritten grows before close', async () => {
  const spec: ParquetColumnSpec[] = [{ name: 'v', type: { id: 'int64' }, nullable: false, fieldId: 1 }];
  const w = new ParquetStreamWriter(spec, { rowGroupRows: 10_000 });
  // Scrambled values: a row group of them is ~80 KB, past what parquet-wasm's output holds back (~8 KiB).
  const batch = (start: number): Batch => ({
    schema: { fields: [] },
    length: 10_000,
    columns: [
      makeColumn(
        { id: 'int64' },
        Float64Array.from({ length: 10_000 }, (_, i) => ((start + i) * 7919) % 1_000_003),
        null,
        10_000,
      ),
    ],
  });
  const sizes: number[] = [];
  for (let b = 0; b < 5; b++) {
    await w.write(batch(b * 10_000));
    sizes.push(w.bytesWritten);
  }
  assert.ok(sizes[0]! > 0, `a full row group is flushed by the time write resolves (${sizes})`);
  assert.ok(
    sizes.every((s, i) => i === 0 || s > sizes[i - 1]!),
    `sizes grow: ${sizes}`,
  );
  const path = join(dir, 'groups.parquet');
  writeFileSync(path, await w.close());
  const [r] = await duck(`select count(*)::int n, sum(v)::varchar s from '${path}'`);
  let sum = 0;
  for (let i = 0; i < 50_000; i++) sum += (i * 7919) % 1_000_003;
  assert.deepEqual(r, { n: 50_000, s: String(sum) });
  const [g] = await duck(`select count(distinct row_group_id)::int g from parquet_metadata('${path}')`);
  assert.equal(g!.g, 5);
});

test('a writer with no rows closes to a valid empty file; abort rejects later writes', async () => {
  const spec: ParquetColumnSpec[] = [{ name: 'v', type: { id: 'utf8' }, nullable: true, fieldId: 3 }];
  const w = new ParquetStreamWriter(spec);
  const path = join(dir, 'empty.parquet');
  writeFileSync(path, await w.close());
  const [r] = await duck(`select count(*)::int n from '${path}'`);
  assert.equal(r!.n, 0);
  const a = new ParquetStreamWriter(spec);
  await a.write({ schema: { fields: [] }, length: 1, columns: [makeColumn({ id: 'utf8' }, ['x'], null, 1)] });
  a.abort(new Error('stop'));
  await assert.rejects(
    a.write({ schema: { fields: [] }, length: 1, columns: [makeColumn({ id: 'utf8' }, ['y'], null, 1)] }),
    /stop/,
  );
});
