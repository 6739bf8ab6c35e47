// Arrow JS data -> floe columns: zero-copy where the layouts agree (ints, floats, dates, UTF-8 bytes).
import * as arrow from 'apache-arrow';
import { NotSupportedError } from '../errors.js';
import { type DataType, decimal, typeName } from '../plan/types.js';
import { type Column, type ColumnValues, MAX_EXACT, makeColumn, narrowExact } from './column.js';
import { take } from './kernels/take.js';

/** floe's type for an Arrow type, or null when floe cannot represent it (lists, structs, binary …). */
export function typeFromArrow(t: arrow.DataType): DataType | null {
  switch (t.typeId) {
    case arrow.Type.Null:
      return { id: 'null' };
    case arrow.Type.Bool:
      return { id: 'bool' };
    case arrow.Type.Int: {
      const it = t as arrow.Int;
      return it.bitWidth < 32 || (it.bitWidth === 32 && it.isSigned) ? { id: 'int32' } : { id: 'int64' };
    }
    case arrow.Type.Float:
      return { id: 'float64' };
    case arrow.Type.Decimal: {
      const d = t as arrow.Decimal;
      return d.bitWidth === 128 ? decimal(d.precision, d.scale) : null;
    }
    case arrow.Type.Utf8:
    case arrow.Type.LargeUtf8:
      return { id: 'utf8' };
    case arrow.Type.Date:
      return { id: 'date' };
    case arrow.Type.Timestamp: {
      const ts = t as arrow.Timestamp;
      return { id: 'timestamp', tz: ts.timezone ?? null };
    }
    case arrow.Type.Dictionary:
      return typeFromArrow((t as arrow.Dictionary).dictionary);
    default:
      return null;
  }
}

/** Converts one Arrow Data chunk; `type` must be `typeFromArrow(data.type)`. */
export function columnFromArrow(data: arrow.Data, type: DataType): Column {
  const n = data.length;
  const valid = validityOf(data);
  if (data.type.typeId === arrow.Type.Dictionary) return fromDictionary(data, type, valid);
  const off = data.offset;
  let values: ColumnValues;
  switch (type.id) {
    case 'null':
      return makeColumn(type, null, new Uint8Array(n), n);
    case 'bool':
      values = unpackBits(data.values as Uint8Array, off, n);
      break;
    case 'int32':
      values =
        data.values instanceof Int32Array
          ? data.values.subarray(off, off + n)
          : Int32Array.from((data.values as Int16Array).subarray(off, off + n));
      break;
    case 'int64':
      values = int64Values(data.values as BigInt64Array | BigUint64Array | Uint32Array, off, n);
      break;
    case 'float64':
      values =
        data.values instanceof Float64Array
          ? data.values.subarray(off, off + n)
          : Float64Array.from((data.values as Float32Array).subarray(off, off + n));
      break;
    case 'decimal':
      values = decimal128Values(data.values as Uint32Array, off, n, type);
      break;
    case 'utf8':
      values = utf8Values(data, off, n);
      break;
    case 'date': {
      const unit = (data.type as arrow.Date_).unit;
      values =
        unit === arrow.DateUnit.DAY
          ? (data.values as Int32Array).subarray(off, off + n)
          : daysFromMillis(data.values as BigInt64Array, off, n);
      break;
    }
    case 'timestamp':
      values = timestampMicros(data.values as BigInt64Array, off, n, (data.type as arrow.Timestamp).unit);
      break;
    default:
      throw new NotSupportedError(`Arrow type ${String(data.type)} (${typeName(type)}) is not supported`);
  }
  return makeColumn(type, values, valid, n);
}

function validityOf(data: arrow.Data): Uint8Array | null {
  if (data.nullCount === 0 || !data.nullBitmap || data.nullBitmap.length === 0) return null;
  return unpackBits(data.nullBitmap, data.offset, data.length);
}

/** One byte per slot from an LSB-first bitmap (Arrow validity and booleans), slots [offset, offset + n). */
export function unpackBits(bits: Uint8Array, offset: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const b = offset + i;
    out[i] = ((bits[b >> 3] as number) >> (b & 7)) & 1;
  }
  return out;
}

function int64Values(
  v: BigInt64Array | BigUint64Array | Uint32Array,
  off: number,
  n: number,
): Float64Array | BigInt64Array {
  if (v instanceof BigInt64Array) return narrowExact(v.subarray(off, off + n));
  if (v instanceof BigUint64Array) {
    const out = new BigInt64Array(n);
    for (let i = 0; i < n; i++) {
      const x = v[off + i] as bigint;
      if (x > 2n ** 63n - 1n) throw new NotSupportedError('unsigned 64-bit values above 2^63-1 are not supported');
      out[i] = x;
    }
    return narrowExact(out);
  }
  return Float64Array.from(v.subarray(off, off + n));
}

// Decimal128: four little-endian 32-bit words per value; floe keeps values that fit a signed 64-bit integer.
function decimal128Values(w: Uint32Array, off: number, n: number, type: DataType): Float64Array | BigInt64Array {
  const out = new Float64Array(n);
  let big: BigInt64Array | null = null;
  for (let i = 0; i < n; i++) {
    const k = (off + i) * 4;
    const lo = w[k] as number;
    const hi = w[k + 1] as number;
    const w2 = w[k + 2] as number;
    const w3 = w[k + 3] as number;
    const negative = hi >= 0x80000000;
    const extends64 = negative ? w2 === 0xffffffff && w3 === 0xffffffff : w2 === 0 && w3 === 0;
    if (!extends64) throw new NotSupportedError(`${typeName(type)} value beyond 18 digits is not supported yet`);
    const value = (negative ? hi - 0x100000000 : hi) * 0x100000000 + lo;
    if (big === null && (value > MAX_EXACT || value < -MAX_EXACT)) {
      big = new BigInt64Array(n);
      for (let j = 0; j < i; j++) big[j] = BigInt(out[j] as number);
    }
    if (big !== null) big[i] = (BigInt(negative ? hi - 0x100000000 : hi) << 32n) + BigInt(lo);
    else out[i] = value;
  }
  if (big) return big;
  return out;
}

function utf8Values(data: arrow.Data, off: number, n: number): ColumnValues {
  const offsets = data.valueOffsets as Int32Array | BigInt64Array;
  if (offsets instanceof Int32Array)
    return { offsets: offsets.subarray(off, off + n + 1), bytes: data.values as Uint8Array };
  const small = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) small[i] = Number(offsets[off + i]);
  return { offsets: small, bytes: data.values as Uint8Array };
}

function daysFromMillis(v: BigInt64Array, off: number, n: number): Int32Array {
  return Int32Array.from(v.subarray(off, off + n), (x) => Math.floor(Number(x) / 86_400_000));
}

const MICROS_PER_UNIT = [1e6, 1e3, 1, 1e-3];

function timestampMicros(v: BigInt64Array | Int32Array, off: number, n: number, unit: arrow.TimeUnit): Float64Array {
  const f = MICROS_PER_UNIT[unit] as number;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(Number(v[off + i]) * f);
  return out;
}

function fromDictionary(data: arrow.Data, type: DataType, valid: Uint8Array | null): Column {
  const dictData = (data.dictionary as arrow.Vector).data[0]!;
  const dict = columnFromArrow(dictData, type);
  const idx = data.values as Int32Array | Int16Array | Int8Array | Uint32Array;
  const indices = Int32Array.from(idx.subarray(data.offset, data.offset + data.length));
  const out = take(dict, indices, indices.length);
  return makeColumn(type, out.values, valid, data.length);
}

export interface DecodedIPC {
  /** Every field of the stream, with floe's type or null when floe cannot represent it. */
  readonly fields: readonly { readonly name: string; readonly type: DataType | null; readonly nullable: boolean }[];
  /** Per record batch: its row count and one column per field (null for unsupported fields). */
  readonly batches: readonly { readonly length: number; readonly columns: readonly (Column | null)[] }[];
}

/** Decodes an Arrow IPC stream (as parquet-wasm produces) into floe columns. */
export function decodeIPC(bytes: Uint8Array): DecodedIPC {
  const table = arrow.tableFromIPC(bytes);
  const fields = table.schema.fields.map((f) => ({ name: f.name, type: typeFromArrow(f.type), nullable: f.nullable }));
  const batches = table.batches.map((b) => ({
    length: b.numRows,
    columns: fields.map((f, i) => (f.type === null ? null : columnFromArrow(b.data.children[i]!, f.type))),
  }));
  return { fields, batches };
}
