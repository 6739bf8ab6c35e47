// Partition tuples in manifests: the `partition` record's columns, their Avro values, and the list's field summaries.
import { encodeValue } from './bounds.js';
import type { FieldSummary } from './manifest-list.js';
import { decimalBytes, type PartitionColumn } from './manifest-schemas.js';
import {
  type DataFile,
  type IcebergSchema,
  type IcebergType,
  type IcebergValue,
  type PartitionSpec,
  partitionResultType,
} from './spec.js';

/** The partition record's columns for `spec` over `schema` (each field's name, id and transform result type). */
export function partitionColumns(schema: IcebergSchema, spec: PartitionSpec): PartitionColumn[] {
  return spec.fields.map((f) => {
    const source = schema.fields.find((c) => c.id === f['source-id']);
    if (source === undefined) throw new Error(`partition field ${f.name} has no source column ${f['source-id']}`);
    return { name: f.name, fieldId: f['field-id'], type: partitionResultType(f.transform, source.type) };
  });
}

/** A partition value as avsc writes it for the column's Avro type (`avroType`). */
export function encodePartitionValue(type: IcebergType, v: IcebergValue | null): unknown {
  if (v === null) return null;
  const t = String(type);
  const decimal = /^decimal\(\s*(\d+)\s*,/.exec(t);
  if (decimal) return signExtend(encodeValue(type, v), decimalBytes(Number(decimal[1])));
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (t === 'long' || t.startsWith('time')) return BigInt(v as number | bigint);
  if (typeof v === 'bigint') return Number(v);
  return v;
}

/** Two's-complement big-endian `bytes` widened to `size` bytes (a decimal's fixed). */
function signExtend(bytes: Uint8Array, size: number): Buffer {
  const out = Buffer.alloc(size, bytes.length > 0 && bytes[0]! & 0x80 ? 0xff : 0);
  out.set(bytes, size - bytes.length);
  return out;
}

/** Per partition column: whether `files` hold a NULL or NaN, and the lowest and highest value (Appendix D bytes). */
export function partitionSummaries(files: readonly DataFile[], columns: readonly PartitionColumn[]): FieldSummary[] {
  return columns.map((c, i) => {
    let containsNull = false;
    let containsNan = false;
    let lower: IcebergValue | null = null;
    let upper: IcebergValue | null = null;
    for (const f of files) {
      const v = f.partition[i] ?? null;
      if (v === null) containsNull = true;
      else if (typeof v === 'number' && Number.isNaN(v)) containsNan = true;
      else {
        if (lower === null || compareValues(v, lower) < 0) lower = v;
        if (upper === null || compareValues(v, upper) > 0) upper = v;
      }
    }
    return {
      contains_null: containsNull,
      contains_nan: containsNan,
      lower_bound: lower === null ? null : encodeValue(c.type, lower),
      upper_bound: upper === null ? null : encodeValue(c.type, upper),
    };
  });
}

const utf8 = new TextEncoder();

/** Iceberg's order: numbers by value, strings by their UTF-8 bytes, bytes unsigned lexicographically. */
export function compareValues(a: IcebergValue, b: IcebergValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareBytes(utf8.encode(a), utf8.encode(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A key that is equal for equal partition tuples (to count changed partitions). */
export function partitionKey(values: readonly (IcebergValue | null)[]): string {
  return JSON.stringify(
    values.map((v) => (v instanceof Uint8Array ? Array.from(v) : typeof v === 'bigint' ? `${v}n` : v)),
  );
}

export type { PartitionColumn };
