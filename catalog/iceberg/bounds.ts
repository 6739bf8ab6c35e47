// Iceberg's binary single-value serialization (spec Appendix D): column bounds and partition summaries as bytes.
import type { IcebergType, IcebergValue } from './spec.js';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** `value` of primitive type `type` as Appendix D lays it out (little-endian numbers, big-endian decimals). */
export function encodeValue(type: IcebergType, value: IcebergValue): Uint8Array {
  const t = primitive(type);
  switch (t) {
    case 'boolean':
      return Uint8Array.of(value ? 1 : 0);
    case 'int':
    case 'date': {
      const out = new Uint8Array(4);
      new DataView(out.buffer).setInt32(0, Number(value), true);
      return out;
    }
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns': {
      const out = new Uint8Array(8);
      new DataView(out.buffer).setBigInt64(0, BigInt(value as number | bigint), true);
      return out;
    }
    case 'float': {
      const out = new Uint8Array(4);
      new DataView(out.buffer).setFloat32(0, Number(value), true);
      return out;
    }
    case 'double': {
      const out = new Uint8Array(8);
      new DataView(out.buffer).setFloat64(0, Number(value), true);
      return out;
    }
    case 'string':
      return utf8.encode(String(value));
    default:
      if (t.startsWith('decimal')) return decimalBytes(BigInt(value as number | bigint));
      // binary, fixed[L], uuid: the bytes themselves.
      if (value instanceof Uint8Array) return value;
      throw new Error(`cannot encode a bound of type ${t}`);
  }
}

/** The value of type `type` that `bytes` serialize (the inverse of `encodeValue`); see `IcebergValue` for domains. */
export function decodeValue(type: IcebergType, bytes: Uint8Array): IcebergValue {
  const t = primitive(type);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (t) {
    case 'boolean':
      return bytes[0] !== 0;
    case 'int':
    case 'date':
      return view.getInt32(0, true);
    case 'long':
    case 'time':
    case 'timestamp':
    case 'timestamptz':
    case 'timestamp_ns':
    case 'timestamptz_ns':
      // Older writers stored int-promoted-to-long bounds in 4 bytes.
      return bytes.length === 4 ? BigInt(view.getInt32(0, true)) : view.getBigInt64(0, true);
    case 'float':
      return view.getFloat32(0, true);
    case 'double':
      return bytes.length === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true);
    case 'string':
      return fromUtf8.decode(bytes);
    default:
      if (t.startsWith('decimal')) return decimalValue(bytes);
      return bytes.slice();
  }
}

function primitive(type: IcebergType): string {
  if (typeof type !== 'string') throw new Error(`nested type ${type.type} has no single-value serialization`);
  return type;
}

/** Two's-complement big-endian in the fewest bytes that keep the sign. */
function decimalBytes(v: bigint): Uint8Array {
  const out: number[] = [];
  let x = v;
  for (;;) {
    const byte = Number(x & 0xffn);
    out.unshift(byte);
    x >>= 8n;
    const signBit = (byte & 0x80) !== 0;
    if ((x === 0n && !signBit) || (x === -1n && signBit)) break;
  }
  return Uint8Array.from(out);
}

function decimalValue(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  const bits = BigInt(bytes.length * 8);
  return bytes[0]! & 0x80 ? v - (1n << bits) : v;
}
