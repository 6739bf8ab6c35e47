// Engine batches -> Arrow IPC stream bytes (Parquet writer, Arrow results): typed arrays handed over, not boxed.
import * as arrow from 'apache-arrow';
import { parseIntervalText } from '../plan/interval-text.js';
import type { DataType } from '../plan/types.js';
import type { Batch } from './batch.js';
import { type Column, isUtf8Bytes } from './column.js';

/** One output column: its name, floe type and nullability, and the Parquet field id to stamp on it. */
export interface ArrowColumnSpec {
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  /** Written as the field's `PARQUET:field_id` metadata (Iceberg's column id). */
  readonly fieldId?: number;
  /** Store a float64 column as 32-bit floats (an Iceberg `float` column). */
  readonly float32?: boolean;
}

/**
 * The Arrow schema of `specs`: int32/int64/float64/bool/utf8 as such, decimals as Decimal128(precision, scale), dates
 * as Date32 (days), timestamps in microseconds (`UTC` for those with a zone), intervals as Interval(MonthDayNano),
 * NULL-typed columns as Null. Text is always plain Utf8, never a dictionary (see server/serialize/arrow-ipc.ts).
 */
export function arrowSchemaOf(specs: readonly ArrowColumnSpec[]): arrow.Schema {
  return new arrow.Schema(
    specs.map((s) => {
      const meta = s.fieldId === undefined ? undefined : new Map([['PARQUET:field_id', String(s.fieldId)]]);
      return new arrow.Field(s.name, arrowType(s), s.nullable, meta);
    }),
  );
}

/** `batch` (columns in `specs` order, typed as `specs` say) as one record batch of an Arrow IPC stream. */
export function batchToArrowIPC(batch: Batch, schema: arrow.Schema, specs: readonly ArrowColumnSpec[]): Uint8Array {
  const n = batch.length;
  const children = specs.map((s, i) => columnData(batch.columns[i]!, s, schema.fields[i]!.type, n));
  const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, children });
  return arrow.tableToIPC(new arrow.Table([new arrow.RecordBatch(schema, data)]), 'stream');
}

/** Bytes of the end-of-stream marker: continuation, then a zero metadata length. */
const END_OF_STREAM_BYTES = 8;

/**
 * A fresh end-of-stream marker of an Arrow IPC stream. Fresh on every call, never a shared constant: a caller may
 * transfer the bytes' buffer to another thread, which would empty a shared one for everybody after.
 */
export function arrowEndOfStream(): Uint8Array {
  return Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);
}

/** The schema message of `schema` alone (continuation, metadata length, flatbuffer): an IPC stream's first message. */
export function arrowSchemaMessage(schema: arrow.Schema): Uint8Array {
  const stream = arrow.tableToIPC(new arrow.Table(schema), 'stream');
  return stream.slice(0, firstMessageBytes(stream));
}

/**
 * `batch` as one encapsulated record batch message: `batchToArrowIPC` without its schema message and end-of-stream
 * marker (a view into that stream's bytes, not a copy). A batch of no rows still gives a message.
 */
export function batchToArrowMessage(batch: Batch, schema: arrow.Schema, specs: readonly ArrowColumnSpec[]): Uint8Array {
  const stream = batchToArrowIPC(batch, schema, specs);
  return stream.subarray(firstMessageBytes(stream), stream.length - END_OF_STREAM_BYTES);
}

/** Bytes of the stream's first message, which is the schema's (it has no body): 8-byte prefix + padded metadata. */
function firstMessageBytes(stream: Uint8Array): number {
  return 8 + new DataView(stream.buffer, stream.byteOffset, stream.byteLength).getInt32(4, true);
}

function arrowType(s: ArrowColumnSpec): arrow.DataType {
  const t = s.type;
  switch (t.id) {
    case 'bool':
      return new arrow.Bool();
    case 'int32':
      return new arrow.Int32();
    case 'int64':
      return new arrow.Int64();
    case 'float64':
      return s.float32 ? new arrow.Float32() : new arrow.Float64();
    case 'decimal':
      return new arrow.Decimal(t.scale, t.precision, 128);
    case 'utf8':
      return new arrow.Utf8();
    case 'date':
      return new arrow.DateDay();
    case 'timestamp':
      return new arrow.TimestampMicrosecond(t.tz === null ? null : 'UTC');
    case 'interval':
      return new arrow.IntervalMonthDayNano();
    case 'null':
      return new arrow.Null();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: makeData's overloads are keyed by the concrete Arrow type.
function columnData(col: Column, spec: ArrowColumnSpec, type: arrow.DataType, n: number): arrow.Data<any> {
  const { nullBitmap, nullCount } = validity(col, n);
  const base = { type, length: n, nullCount, nullBitmap } as const;
  const v = col.values;
  switch (spec.type.id) {
    case 'bool':
      return arrow.makeData({ ...base, type: type as arrow.Bool, data: packBits(v as Uint8Array | null, n) });
    case 'int32':
      return arrow.makeData({
        ...base,
        type: type as arrow.Int32,
        data: (v as Int32Array | null) ?? new Int32Array(n),
      });
    case 'date':
      return arrow.makeData({
        ...base,
        type: type as arrow.DateDay,
        data: (v as Int32Array | null) ?? new Int32Array(n),
      });
    case 'float64':
      return arrow.makeData({
        ...base,
        type: type as arrow.Float64,
        data: spec.float32
          ? Float32Array.from((v as Float64Array | null) ?? [])
          : ((v as Float64Array) ?? new Float64Array(n)),
      });
    case 'int64':
    case 'timestamp':
      return arrow.makeData({
        ...base,
        type: type as arrow.Int64,
        data: int64Words(v as Float64Array | BigInt64Array | null, n),
      });
    case 'decimal':
      return arrow.makeData({
        ...base,
        type: type as arrow.Decimal,
        data: decimalWords(v as Float64Array | BigInt64Array | null, n),
      });
    case 'utf8':
      return arrow.makeData({ ...base, type: type as arrow.Utf8, ...utf8Buffers(col, n) });
    case 'interval':
      return arrow.makeData({ ...base, type: type as arrow.IntervalMonthDayNano, data: intervalWords(col, n) });
    case 'null':
      return arrow.makeData({ type: type as arrow.Null, length: n, nullCount: n });
  }
}

function validity(col: Column, n: number): { nullBitmap: Uint8Array | undefined; nullCount: number } {
  if (col.values === null && col.type.id === 'null') return { nullBitmap: new Uint8Array((n + 7) >> 3), nullCount: n };
  const valid = col.valid;
  if (valid === null) return { nullBitmap: undefined, nullCount: 0 };
  const bitmap = packBits(valid, n);
  let valids = 0;
  for (let i = 0; i < n; i++) valids += valid[i]!;
  return valids === n ? { nullBitmap: undefined, nullCount: 0 } : { nullBitmap: bitmap, nullCount: n - valids };
}

/** One byte per row (non-zero = set) -> Arrow's LSB-first bitmap. */
function packBits(bytes: Uint8Array | null, n: number): Uint8Array {
  const out = new Uint8Array((n + 7) >> 3);
  if (bytes === null) return out;
  for (let i = 0; i < n; i++) if (bytes[i]) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

/** 64-bit integers (int64; timestamps in microseconds): doubles split into two 32-bit words without BigInt. */
function int64Words(v: Float64Array | BigInt64Array | null, n: number): BigInt64Array {
  if (v instanceof BigInt64Array) return v;
  const out = new BigInt64Array(n);
  if (v === null) return out;
  const words = new Int32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const x = Math.round(v[i]!);
    words[2 * i] = x | 0;
    words[2 * i + 1] = Math.floor(x / 4294967296);
  }
  return out;
}

/** Decimal128 as four little-endian 32-bit words per value (the unscaled integer, sign-extended). */
function decimalWords(v: Float64Array | BigInt64Array | null, n: number): Uint32Array {
  const words = new Uint32Array(n * 4);
  if (v === null) return words;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (typeof x === 'number') {
      words[i * 4] = x >>> 0;
      words[i * 4 + 1] = Math.floor(x / 4294967296) >>> 0;
      words[i * 4 + 2] = words[i * 4 + 3] = x < 0 ? 0xffffffff : 0;
    } else {
      const u = BigInt.asUintN(128, x);
      for (let w = 0; w < 4; w++) words[i * 4 + w] = Number((u >> BigInt(32 * w)) & 0xffffffffn);
    }
  }
  return words;
}

/** MonthDayNano: months and days as int32, then nanoseconds as int64 (from the PostgreSQL text the column holds). */
function intervalWords(col: Column, n: number): Int32Array {
  const words = new Int32Array(n * 4);
  const texts = col.values as string[] | null;
  if (texts === null) return words;
  const nanos = new BigInt64Array(words.buffer);
  for (let i = 0; i < n; i++) {
    if (col.valid !== null && col.valid[i] === 0) continue;
    const { months, days, micros } = parseIntervalText(texts[i]!);
    words[i * 4] = months;
    words[i * 4 + 1] = days;
    // BigInt: nanoseconds pass 2^53 past about 104 days.
    nanos[i * 2 + 1] = BigInt(micros) * 1000n;
  }
  return words;
}

/** Offsets from 0 and the bytes they index: UTF-8 bytes rebased, JS strings encoded (NULL rows empty). */
function utf8Buffers(col: Column, n: number): { valueOffsets: Int32Array; data: Uint8Array } {
  const v = col.values;
  if (v !== null && isUtf8Bytes(v)) {
    const start = v.offsets[0]!;
    const valueOffsets =
      start === 0 ? v.offsets.subarray(0, n + 1) : v.offsets.subarray(0, n + 1).map((o) => o - start);
    return { valueOffsets, data: v.bytes.subarray(start, v.offsets[n]!) };
  }
  const strings = (v as string[] | null) ?? [];
  const encoder = new TextEncoder();
  const valueOffsets = new Int32Array(n + 1);
  const joined = strings.length === n ? strings.join('') : '';
  const data = encoder.encode(joined);
  if (strings.length === n && data.length === joined.length) {
    for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i]! + strings[i]!.length;
    return { valueOffsets, data };
  }
  // Not all ASCII: encoded one by one (joining could pair a lone surrogate with its neighbour's).
  const parts = Array.from({ length: n }, (_, i) => encoder.encode(strings[i] ?? ''));
  for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i]! + parts[i]!.length;
  const bytes = new Uint8Array(valueOffsets[n]!);
  for (let i = 0; i < n; i++) bytes.set(parts[i]!, valueOffsets[i]!);
  return { valueOffsets, data: bytes };
}
