// INT64 decimals served as plain INT64: the footer rewrite, the thrift walker under it, and the values read back.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata } from 'hyparquet';
import { duckText } from '../../../../../bench/lib/result-rows.js';
import type { Batch } from '../../../../../engine/arrow/batch.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { createEngine } from '../../../../../engine/index.js';
import { decodeRowGroup, fileSchema, openParquet } from '../../../../../engine/io/parquet/decode.js';
import { openFileSource } from '../../../../../engine/io/parquet/file-source.js';
import { createParquetTable } from '../../../../../engine/io/parquet/parquet-table.js';
import { withPlainDecimals } from '../../../../../engine/io/parquet/plain-decimals.js';
import { CompactReader, CompactType, fieldHeader } from '../../../../../engine/io/parquet/thrift-compact.js';
import { writeParquetFile } from '../../../../../engine/io/parquet/write.js';
import { createMapCatalog } from '../../../../../engine/map-catalog.js';

const ROWS = 5_000;
let dir: string;
/** Written by DuckDB: no ARROW:schema; DECIMAL(15,2), (18,3), (18,0) as INT64, (9,1) as INT32, (38,2) as bytes. */
let duckPath: string;
/** Written by parquet-rs (floe's writer): INT64 decimals with a Decimal128 `ARROW:schema` hint beside them. */
let rustPath: string;
const COLUMNS = 'id, price, signed, big, narrow, wide';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'floe-plain-decimals-'));
  duckPath = join(dir, 'duck.parquet');
  rustPath = join(dir, 'rust.parquet');
  const duck = await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  await conn.run(`COPY (SELECT i::INTEGER AS id,
      (i * 1.25)::DECIMAL(15,2) AS price,
      CASE WHEN i % 5 = 0 THEN NULL ELSE (i * -0.007)::DECIMAL(18,3) END AS signed,
      CASE WHEN i = 7 THEN 987654321987654321 WHEN i = 8 THEN -987654321987654321 ELSE i END::DECIMAL(18,0) AS big,
      (i / 10)::DECIMAL(9,1) AS narrow,
      (i * 1.5)::DECIMAL(38,2) AS wide
    FROM range(${ROWS}) t(i)) TO '${duckPath}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  conn.closeSync();
  duck.closeSync();
  await writeParquetFile(
    rustPath,
    [
      { name: 'id', type: { id: 'int32' }, values: Array.from({ length: ROWS }, (_, i) => i) },
      {
        name: 'amount',
        type: { id: 'decimal', precision: 15, scale: 2 },
        values: Array.from({ length: ROWS }, (_, i) => (i % 3 === 0 ? null : (i - 2_500) * 101)),
      },
    ],
    { rowGroupRows: 2_000 },
  );
});

after(() => rm(dir, { recursive: true, force: true }));

async function footerOf(path: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await readFile(path));
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
  return bytes.slice(bytes.length - 8 - length);
}

async function rows(path: string, sql: string): Promise<string[]> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', await createParquetTable([path])]])) });
  const out: string[] = [];
  for await (const b of (await engine.execute(sql)).batches as AsyncIterable<Batch>)
    for (let i = 0; i < b.length; i++) out.push(b.columns.map((c) => cellText(c, i) ?? 'NULL').join('|'));
  return out;
}

async function duckRows(path: string, sql: string): Promise<string[]> {
  const duck = await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  await conn.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${path}')`);
  const reader = await conn.runAndReadAll(sql);
  conn.closeSync();
  duck.closeSync();
  return reader.getRows().map((r) => r.map((v) => duckText(v) ?? 'NULL').join('|'));
}

test('only top-level INT64 decimals lose their annotation; row groups and other columns are unchanged', async () => {
  const footer = await footerOf(duckPath);
  const plain = withPlainDecimals(footer);
  assert.ok(plain !== null);
  assert.deepEqual(Object.fromEntries(plain.types), {
    price: { id: 'decimal', precision: 15, scale: 2 },
    signed: { id: 'decimal', precision: 18, scale: 3 },
    big: { id: 'decimal', precision: 18, scale: 0 },
  });
  const before = parquetMetadata(footer.slice().buffer);
  const after = parquetMetadata(plain.footer.slice().buffer);
  // (hyparquet reads the statistics by the schema's type: unscaled integers now.)
  const chunks = (m: typeof before) =>
    m.row_groups.map((rg) => ({
      ...rg,
      columns: rg.columns.map((c) => ({ ...c, meta_data: { ...c.meta_data!, statistics: undefined } })),
    }));
  assert.deepEqual(chunks(after), chunks(before));
  assert.deepEqual(after.key_value_metadata, before.key_value_metadata);
  assert.equal(after.schema.length, before.schema.length);
  for (const [i, el] of after.schema.entries()) {
    const was = before.schema[i]!;
    if (!plain.types.has(el.name)) {
      assert.deepEqual(el, was, el.name);
      continue;
    }
    assert.equal(el.type, 'INT64');
    assert.equal(el.converted_type, undefined);
    assert.equal(el.logical_type, undefined);
    assert.equal(el.scale, undefined);
    assert.deepEqual(
      { ...el },
      { ...was, converted_type: undefined, logical_type: undefined, scale: undefined, precision: undefined },
      el.name,
    );
  }
});

test('a footer without INT64 decimals, or one that cannot be walked, is left alone', async () => {
  const footer = await footerOf(duckPath);
  assert.equal(withPlainDecimals(footer.subarray(0, footer.length - 200)), null);
  assert.equal(withPlainDecimals(footer.subarray(0, 5)), null);
  const ints = join(dir, 'ints.parquet');
  await writeParquetFile(ints, [{ name: 'n', type: { id: 'int64' }, values: [1, 2, 3] }]);
  assert.equal(withPlainDecimals(await footerOf(ints)), null);
  assert.equal((await openFileSource(ints)).decimals.size, 0);
});

test('the decimals read back as decimals with DuckDB values: nulls, negatives, beyond 2^53, both writers', async () => {
  const sql = `SELECT ${COLUMNS} FROM t ORDER BY id`;
  const got = await rows(duckPath, sql);
  assert.equal(got.length, ROWS);
  assert.deepEqual(got, await duckRows(duckPath, sql));
  assert.equal(got[7], '7|8.75|-0.049|987654321987654321|0.7|10.50');
  const sums = `SELECT sum(price), sum(signed), count(signed), min(big), max(big), sum(narrow), sum(wide) FROM t`;
  assert.deepEqual(await rows(duckPath, sums), await duckRows(duckPath, sums));
  const rust = 'SELECT id, amount, amount * 2 FROM t WHERE amount < 0 ORDER BY id';
  assert.deepEqual(await rows(rustPath, rust), await duckRows(rustPath, rust));
});

test('the schema and both decode paths (C data interface and IPC) give the decimal type back', async () => {
  for (const [path, column, type] of [
    [duckPath, 'signed', { id: 'decimal', precision: 18, scale: 3 }],
    [rustPath, 'amount', { id: 'decimal', precision: 15, scale: 2 }],
  ] as const) {
    const file = await openParquet(path);
    assert.deepEqual(fileSchema(file).find((f) => f.name === column)?.type, type);
    for (const viaIPC of [false, true]) {
      const [batch] = await decodeRowGroup(file, 0, [column, 'id'], 10, viaIPC);
      assert.deepEqual(batch!.columns[0]!.type, type, `${path} viaIPC=${viaIPC}`);
      assert.ok(batch!.columns[0]!.values instanceof Float64Array);
    }
  }
  const [big] = await decodeRowGroup(await openParquet(duckPath), 0, ['big'], 10);
  assert.ok(big!.columns[0]!.values instanceof BigInt64Array, 'a value beyond 2^53 keeps the column exact');
});

test('the thrift walker re-emits a footer byte for byte and rejects a truncated one', async () => {
  const footer = await footerOf(duckPath);
  const metadata = footer.subarray(0, footer.length - 8);
  const reader = new CompactReader(metadata);
  const fields = reader.struct();
  assert.equal(reader.pos, metadata.length);
  assert.deepEqual(
    fields.map((f) => f.id),
    [1, 2, 3, 4, 6, 7].filter((id) => fields.some((f) => f.id === id)),
  );
  let lastId = 0;
  const parts: Uint8Array[] = [];
  for (const f of fields) {
    parts.push(fieldHeader(f.id, lastId, f.type), metadata.subarray(f.valueAt, f.end));
    lastId = f.id;
  }
  parts.push(Uint8Array.of(0));
  assert.deepEqual(Buffer.concat(parts), Buffer.from(metadata));
  assert.throws(() => new CompactReader(metadata.subarray(0, metadata.length - 1)).struct(), RangeError);
  assert.throws(() => new CompactReader(Uint8Array.of(0x1d)).struct(), /unknown thrift compact type 13/);
});

test('field headers: short form for a step of 1-15, long form (zigzag id) otherwise', () => {
  assert.deepEqual(fieldHeader(3, 2, CompactType.i32), Uint8Array.of(0x15));
  assert.deepEqual(fieldHeader(17, 1, CompactType.i32), Uint8Array.of(0x05, 34));
  assert.deepEqual(fieldHeader(1, 5, CompactType.binary), Uint8Array.of(0x08, 2));
  const bytes = Buffer.concat([
    fieldHeader(17, 0, CompactType.i32),
    Uint8Array.of(3),
    fieldHeader(2, 17, CompactType.boolTrue),
    Uint8Array.of(0),
  ]);
  const fields = new CompactReader(bytes).struct();
  assert.deepEqual(
    fields.map((f) => [f.id, f.type]),
    [
      [17, CompactType.i32],
      [2, CompactType.boolTrue],
    ],
  );
});
