// The `arrow` and `ndjson` result formats: apache-arrow reads the stream back equal to the JSON rows, for every type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as arrow from 'apache-arrow';
import { sliceBatch } from '../../../../engine/arrow/batch.js';
import { makeColumn } from '../../../../engine/arrow/column.js';
import { type Batch, createEngine, createMapCatalog, type Schema } from '../../../../engine/index.js';
import { MAX_ARROW_MESSAGE_BYTES, makeArrowSerializer } from '../../../../server/serialize/arrow-ipc.js';
import { splitArrowMessages } from '../../../../server/serialize/arrow-messages.js';
import { createSerializer, type ResultFormat } from '../../../../server/serialize/serializer.js';
import { arrowObjects } from '../../../helpers/arrow-rows.js';
import {
  batchOf,
  bytesColumn,
  column,
  INT32,
  PEOPLE_SCHEMA,
  peopleBatch,
  schemaOf,
  UTF8,
} from '../../../helpers/batches.js';

const encoder = new TextEncoder();
const bytes = (piece: string | Uint8Array) => (typeof piece === 'string' ? encoder.encode(piece) : piece);

/** Every piece a fresh serializer of `format` returns, in order. */
function pieces(format: ResultFormat, schema: Schema, batches: readonly Batch[]): Uint8Array[] {
  const s = createSerializer(format);
  return [bytes(s.begin(schema)), ...batches.map((b) => bytes(s.batch(b))), bytes(s.end())];
}

const joined = (parts: readonly Uint8Array[]) => Buffer.concat(parts);
const utf8 = (format: ResultFormat, schema: Schema, batches: readonly Batch[]) =>
  joined(pieces(format, schema, batches)).toString('utf8');

/** JSON rows with every bare number kept as its text (so decimals and bigints compare exactly). */
function jsonRowsAsText(schema: Schema, batches: readonly Batch[]): Record<string, string | boolean | null>[] {
  const text = utf8('json', schema, batches);
  return JSON.parse(text.replace(/:(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=[,}])/g, ':"$1"'));
}

async function engineResult(sql: string): Promise<{ schema: Schema; batches: Batch[] }> {
  const engine = createEngine({ catalog: createMapCatalog(new Map()) });
  const result = await engine.execute(sql);
  const batches: Batch[] = [];
  for await (const b of result.batches) batches.push(b);
  return { schema: result.schema, batches };
}

const EVERY_TYPE_SQL = `SELECT * FROM (VALUES
  (1::smallint, 2::int, 9007199254740993::bigint, 1.5::float8, 12.34::numeric(10,2), 'x€', DATE '2020-02-29',
   TIMESTAMP '2020-01-01 01:02:03.123456', INTERVAL '1 year 2 mons 3 days 04:05:06.5', true,
   9007199254740993::numeric(30,1) * 10),
  (-7, -8, -9, 'NaN'::float8, -0.05, '', DATE '1969-12-31', TIMESTAMP '1900-01-01 00:00:00', INTERVAL '-200 days -3000 hours', false,
   -1.5),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)) t(s, i, b, f, d, t, dt, ts, iv, bo, big)`;

describe('arrow', () => {
  it('maps every engine type to its exact Arrow type', async () => {
    const { schema, batches } = await engineResult(EVERY_TYPE_SQL);
    const table = arrow.tableFromIPC(joined(pieces('arrow', schema, batches)));
    const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]));
    assert.deepEqual(types, {
      s: 'Int32',
      i: 'Int32',
      b: 'Int64',
      f: 'Float64',
      d: 'Decimal[10e+2]',
      t: 'Utf8',
      dt: 'Date32<DAY>',
      ts: 'Timestamp<MICROSECOND>',
      iv: 'Interval<MONTH_DAY_NANO>',
      bo: 'Bool',
      big: 'Decimal[38e+1]',
    });
    const d = table.schema.fields.find((f) => f.name === 'd')!.type as arrow.Decimal;
    assert.deepEqual([d.precision, d.scale, d.bitWidth], [10, 2, 128]);
  });

  it('reads back equal to the JSON rows for every type, NULLs included', async () => {
    const { schema, batches } = await engineResult(EVERY_TYPE_SQL);
    const table = arrow.tableFromIPC(joined(pieces('arrow', schema, batches)));
    assert.equal(table.numRows, 3);
    assert.deepEqual(arrowObjects(table), jsonRowsAsText(schema, batches));
    assert.equal(arrowObjects(table)[0]!.big, '90071992547409930.0');
    assert.equal(arrowObjects(table)[1]!.iv, '-200 days -3000:00:00');
  });

  it('writes timestamptz with the zone UTC, UTF-8 byte columns and all-NULL columns', () => {
    const tz = { id: 'timestamp', tz: 'UTC' } as const;
    const s = schemaOf([
      ['at', tz],
      ['name', UTF8],
      ['nothing', { id: 'null' }],
    ]);
    const batch = batchOf(s, [
      makeColumn(tz, Float64Array.of(1_700_000_000_123_456, 0), Uint8Array.of(1, 0), 2),
      bytesColumn(['日本', null]),
      makeColumn({ id: 'null' }, null, null, 2),
    ]);
    const table = arrow.tableFromIPC(joined(pieces('arrow', s, [batch])));
    const at = table.schema.fields[0]!.type as arrow.TimestampMicrosecond;
    assert.equal(at.timezone, 'UTC');
    assert.equal(String(table.schema.fields[2]!.type), 'Null');
    assert.deepEqual(arrowObjects(table), jsonRowsAsText(s, [batch]));
    assert.deepEqual(arrowObjects(table)[1], { at: null, name: null, nothing: null });
  });

  it('equals the JSON rows of the people fixture (quotes, newlines, NaN, Infinity, unicode)', () => {
    const table = arrow.tableFromIPC(joined(pieces('arrow', PEOPLE_SCHEMA, [peopleBatch()])));
    assert.deepEqual(arrowObjects(table), jsonRowsAsText(PEOPLE_SCHEMA, [peopleBatch()]));
  });

  it('gives an empty result as the schema and no batches', async () => {
    const parts = pieces('arrow', PEOPLE_SCHEMA, []);
    const table = arrow.tableFromIPC(joined(parts));
    assert.equal(table.numRows, 0);
    assert.deepEqual(
      table.schema.fields.map((f) => f.name),
      PEOPLE_SCHEMA.fields.map((f) => f.name),
    );
    // Only the schema message and the end marker (apache-arrow's reader still yields one placeholder of 0 rows).
    assert.equal(splitArrowMessages(joined(parts)).length, 1);
    assert.deepEqual(parts.at(-1), Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0));
    assert.ok([...arrow.RecordBatchReader.from(joined(parts))].every((b) => b.numRows === 0));
    // A batch of no rows writes nothing.
    assert.equal(bytes(makeArrowSerializer().batch(sliceBatch(peopleBatch(), 0, 0))).length, 0);
  });

  it('keeps batch boundaries and row order over many batches', () => {
    const twoCols = schemaOf([
      ['n', INT32, false],
      ['s', UTF8],
    ]);
    const batches = Array.from({ length: 40 }, (_, b) =>
      batchOf(twoCols, [
        column(
          INT32,
          Array.from({ length: 1000 }, (_, i) => b * 1000 + i),
        ),
        column(
          UTF8,
          Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? null : `v${b * 1000 + i}`)),
        ),
      ]),
    );
    const reader = arrow.RecordBatchReader.from(joined(pieces('arrow', twoCols, batches)));
    const read = [...reader];
    assert.equal(read.length, 40);
    assert.ok(read.every((b) => b.numRows === 1000));
    const table = new arrow.Table(read);
    assert.deepEqual(
      [...table.getChild('n')!].slice(995, 1005),
      [995, 996, 997, 998, 999, 1000, 1001, 1002, 1003, 1004],
    );
    assert.deepEqual(arrowObjects(table), jsonRowsAsText(twoCols, batches));
  });

  it('splits a batch so that no message passes the cap, rows unchanged', () => {
    const s = schemaOf([
      ['n', INT32, false],
      ['s', UTF8],
    ]);
    const rows = 60_000;
    // ~100 bytes of text per row: ~6 MB in one engine batch.
    const batch = batchOf(s, [
      column(
        INT32,
        Array.from({ length: rows }, (_, i) => i),
      ),
      bytesColumn(Array.from({ length: rows }, (_, i) => `${i}`.padEnd(100, 'é'))),
    ]);
    const serializer = makeArrowSerializer();
    serializer.begin(s);
    const body = bytes(serializer.batch(batch));
    const messages = splitArrowMessages(body);
    assert.ok(messages.length >= 3, `${messages.length} messages`);
    for (const m of messages) assert.ok(8 + m.header.length + m.body.length <= MAX_ARROW_MESSAGE_BYTES);
    const table = arrow.tableFromIPC(joined(pieces('arrow', s, [batch])));
    assert.equal(table.numRows, rows);
    assert.equal(table.getChild('s')!.get(59_999), '59999'.padEnd(100, 'é'));
    // A small cap forces the halving path (the estimate counts é as one byte; it is two).
    const tiny = makeArrowSerializer(64 * 1024);
    tiny.begin(s);
    const small = splitArrowMessages(bytes(tiny.batch(sliceBatch(batch, 0, 5000))));
    for (const m of small) assert.ok(8 + m.header.length + m.body.length <= 64 * 1024);
    assert.equal(small.reduce((n, m) => n + m.body.length, 0) > 5000 * 100, true);
  });

  it('returns no piece that shares a buffer with a later stream (the pool transfers whole buffers away)', () => {
    // As ChunkSender does: a piece that spans its whole buffer is transferred (detached here) instead of copied.
    const transferred = (parts: Uint8Array[]) =>
      parts.map((p) =>
        p.byteOffset === 0 && p.byteLength === p.buffer.byteLength
          ? structuredClone(p, { transfer: [p.buffer as ArrayBuffer] })
          : p,
      );
    const batches = [peopleBatch(), peopleBatch()];
    const first = transferred(pieces('arrow', PEOPLE_SCHEMA, batches));
    const second = transferred(pieces('arrow', PEOPLE_SCHEMA, batches));
    assert.deepEqual(joined(second), joined(first));
    assert.equal(splitArrowMessages(joined(second)).length, 3);
    assert.equal(arrow.tableFromIPC(joined(second)).numRows, 10);
  });
});

describe('splitArrowMessages', () => {
  it('cuts a stream into the messages apache-arrow reads, schema first, end marker dropped', () => {
    const all = joined(pieces('arrow', PEOPLE_SCHEMA, [peopleBatch(), peopleBatch()]));
    const messages = splitArrowMessages(all);
    const reference: arrow.Message[] = [];
    const reader = new arrow.MessageReader(all);
    for (let r = reader.next(); !r.done; r = reader.next()) {
      reference.push(r.value);
      reader.readMessageBody(r.value.bodyLength);
    }
    assert.equal(messages.length, 3);
    assert.deepEqual(
      messages.map((m) => m.body.length),
      reference.map((m) => Number(m.bodyLength)),
    );
    assert.deepEqual(
      reference.map((m) => m.headerType),
      [arrow.MessageHeader.Schema, arrow.MessageHeader.RecordBatch, arrow.MessageHeader.RecordBatch],
    );
    // Each header decodes alone as the message it came from.
    for (const [k, m] of messages.entries()) {
      const decoded = arrow.Message.decode(m.header);
      assert.equal(decoded.headerType, reference[k]!.headerType);
    }
  });

  it('refuses bytes that are not whole messages', () => {
    const all = joined(pieces('arrow', PEOPLE_SCHEMA, [peopleBatch()]));
    assert.throws(() => splitArrowMessages(all.subarray(0, all.length - 20)), /truncated/);
    assert.throws(() => splitArrowMessages(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8)), /not an Arrow IPC message/);
  });
});

describe('ndjson', () => {
  it('writes one JSON object per line, each equal to the JSON row', () => {
    const text = utf8('ndjson', PEOPLE_SCHEMA, [peopleBatch(), sliceBatch(peopleBatch(), 0, 0), peopleBatch()]);
    assert.ok(text.endsWith('}\n'));
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    const json = JSON.parse(utf8('json', PEOPLE_SCHEMA, [peopleBatch(), peopleBatch()]));
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)),
      json,
    );
    // The value embedded with a newline stays escaped on its line.
    assert.ok(lines[3]!.includes('"line1\\nline2"'));
  });

  it('writes nothing for no rows', () => {
    assert.equal(utf8('ndjson', PEOPLE_SCHEMA, []), '');
  });
});
