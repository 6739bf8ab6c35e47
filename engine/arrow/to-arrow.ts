// floe values -> an Arrow IPC stream (for the Parquet writer): plain JS values per column, typed by floe types.
import * as arrow from 'apache-arrow';
import { NotSupportedError } from '../errors.js';
import { type DataType, typeName } from '../plan/types.js';

/** One column to write: decimals as scaled integers, dates as days, timestamps as microseconds. */
export interface ColumnInput {
  readonly name: string;
  readonly type: DataType;
  readonly values: ArrayLike<number | bigint | string | boolean | null>;
  readonly nullable?: boolean;
}

export function toArrowIPC(columns: readonly ColumnInput[]): Uint8Array {
  const vectors: Record<string, arrow.Vector> = {};
  for (const c of columns) vectors[c.name] = toVector(c);
  return arrow.tableToIPC(new arrow.Table(vectors), 'stream');
}

function toVector(c: ColumnInput): arrow.Vector {
  const n = c.values.length;
  const vals = c.values;
  const nullBitmap = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  // A typed array holds no NULLs.
  for (let i = 0; i < n && !ArrayBuffer.isView(vals); i++) {
    if (vals[i] === null || vals[i] === undefined) nullCount++;
    else nullBitmap[i >> 3]! |= 1 << (i & 7);
  }
  const base = { length: n, nullCount, nullBitmap: nullCount > 0 ? nullBitmap : undefined };
  const num = (i: number) => Number(vals[i] ?? 0);
  switch (c.type.id) {
    case 'bool':
      return arrow.vectorFromArray(Array.from(vals as ArrayLike<boolean | null>), new arrow.Bool());
    case 'int32':
      return arrow.makeVector(arrow.makeData({ ...base, type: new arrow.Int32(), data: int32Values(vals) }));
    case 'int64':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.Int64(),
          data: BigInt64Array.from({ length: n }, (_, i) => BigInt(vals[i] ?? 0)),
        }),
      );
    case 'float64':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.Float64(),
          data: Float64Array.from({ length: n }, (_, i) => num(i)),
        }),
      );
    case 'date':
      return arrow.makeVector(arrow.makeData({ ...base, type: new arrow.DateDay(), data: int32Values(vals) }));
    case 'timestamp':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.TimestampMicrosecond(c.type.tz),
          data: BigInt64Array.from({ length: n }, (_, i) => BigInt(Math.round(num(i)))),
        }),
      );
    case 'decimal':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.Decimal(c.type.scale, c.type.precision, 128),
          data: decimalWords(vals),
        }),
      );
    case 'utf8':
      return arrow.makeVector(
        arrow.makeData({
          ...base,
          type: new arrow.Utf8(),
          ...utf8Buffers(vals as ArrayLike<string | null>, nullCount),
        }),
      );
    default:
      throw new NotSupportedError(`cannot write ${typeName(c.type)} columns to Parquet yet`);
  }
}

/** Int32 storage: a typed array is copied as a block, anything else value by value. */
function int32Values(vals: ColumnInput['values']): Int32Array {
  if (vals instanceof Int32Array) return vals.slice();
  return Int32Array.from({ length: vals.length }, (_, i) => Number(vals[i] ?? 0));
}

/** Decimal128 little-endian 32-bit words; safe-integer numbers skip BigInt (10x faster on millions of values). */
function decimalWords(vals: ColumnInput['values']): Uint32Array {
  const n = vals.length;
  const words = new Uint32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const x = vals[i] ?? 0;
    if (typeof x === 'number' && Number.isSafeInteger(x)) {
      words[i * 4] = x >>> 0;
      words[i * 4 + 1] = Math.floor(x / 4294967296) >>> 0;
      words[i * 4 + 2] = words[i * 4 + 3] = x < 0 ? 0xffffffff : 0;
      continue;
    }
    const v = BigInt.asUintN(128, BigInt(x));
    for (let w = 0; w < 4; w++) words[i * 4 + w] = Number((v >> BigInt(32 * w)) & 0xffffffffn);
  }
  return words;
}

/**
 * Offsets and bytes of a utf8 column (NULL as empty). All-ASCII text, the common case, is encoded in one call
 * on the joined string, where byte offsets equal character offsets; otherwise each string is encoded alone.
 */
function utf8Buffers(
  vals: ArrayLike<string | null>,
  nullCount: number,
): { valueOffsets: Int32Array; data: Uint8Array } {
  const n = vals.length;
  const strings = Array.isArray(vals) && nullCount === 0 ? (vals as string[]) : Array.from(vals, (v) => v ?? '');
  const valueOffsets = new Int32Array(n + 1);
  const encoder = new TextEncoder();
  const joined = strings.join('');
  const data = encoder.encode(joined);
  if (data.length === joined.length) {
    for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i]! + strings[i]!.length;
    return { valueOffsets, data };
  }
  // Encoded one by one: joining could pair a lone surrogate with its neighbour's.
  const parts = strings.map((s) => encoder.encode(s));
  for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i]! + parts[i]!.length;
  const bytes = new Uint8Array(valueOffsets[n]!);
  for (let i = 0; i < n; i++) bytes.set(parts[i]!, valueOffsets[i]!);
  return { valueOffsets, data: bytes };
}
