// Iceberg partition transforms (spec "Partition Transforms"): parsing, source-type checks, and their values.
import { createRequire } from 'node:module';
import { PlanError } from '../../engine/index.js';
import { encodeValue } from './bounds.js';
import type { IcebergType, IcebergValue } from './spec.js';

// murmurhash3js-revisited is CommonJS without types: x86.hash32(bytes, seed) is the reference x86_32 (unsigned).
const murmur = createRequire(import.meta.url)('murmurhash3js-revisited') as {
  x86: { hash32(bytes: Uint8Array, seed?: number): number };
};

export type Transform =
  | { readonly kind: 'identity' | 'year' | 'month' | 'day' | 'hour' | 'void' }
  | { readonly kind: 'bucket'; readonly n: number }
  | { readonly kind: 'truncate'; readonly width: number };

const MICROS_PER_HOUR = 3_600_000_000;
const MICROS_PER_DAY = 86_400_000_000;
const MS_PER_DAY = 86_400_000;

/** `identity | year | month | day | hour | bucket[N] | truncate[W] | void` (PlanError for anything else). */
export function parseTransform(text: string): Transform {
  const t = text.trim().toLowerCase();
  if (['identity', 'year', 'month', 'day', 'hour', 'void'].includes(t)) return { kind: t } as Transform;
  const m = /^(bucket|truncate)\[\s*(\d+)\s*\]$/.exec(t);
  const arg = m ? Number(m[2]) : 0;
  if (m && arg > 0 && arg <= 2 ** 31 - 1)
    return m[1] === 'bucket' ? { kind: 'bucket', n: arg } : { kind: 'truncate', width: arg };
  throw new PlanError(
    `invalid partition transform "${text}": expected identity, year, month, day, hour, bucket[N] or truncate[W] with N, W > 0`,
  );
}

/** The spec's text of a transform (`bucket[16]`). */
export function transformText(t: Transform): string {
  if (t.kind === 'bucket') return `bucket[${t.n}]`;
  if (t.kind === 'truncate') return `truncate[${t.width}]`;
  return t.kind;
}

const BUCKET_TYPES =
  /^(int|long|date|time|timestamp|timestamptz|timestamp_ns|timestamptz_ns|string|uuid|binary|decimal\(.*\)|fixed\[\d+\])$/;
const TRUNCATE_TYPES = /^(int|long|string|binary|decimal\(.*\))$/;
const DATE_TYPES = /^(date|timestamp|timestamptz|timestamp_ns|timestamptz_ns)$/;
const HOUR_TYPES = /^(timestamp|timestamptz|timestamp_ns|timestamptz_ns)$/;

/** Throws PlanError when `t` cannot apply to a column of type `source` (the spec's table of source types). */
export function checkTransform(t: Transform, source: IcebergType, column: string): void {
  if (typeof source !== 'string') throw new PlanError(`cannot partition by nested column ${column}`);
  const ok =
    t.kind === 'identity' || t.kind === 'void'
      ? true
      : t.kind === 'bucket'
        ? BUCKET_TYPES.test(source)
        : t.kind === 'truncate'
          ? TRUNCATE_TYPES.test(source)
          : t.kind === 'hour'
            ? HOUR_TYPES.test(source)
            : DATE_TYPES.test(source);
  if (!ok)
    throw new PlanError(`partition transform ${transformText(t)} cannot apply to column ${column} of type ${source}`);
}

/**
 * The transform of `value` (of Iceberg type `source`, in the `IcebergValue` domain; numbers are accepted where
 * bigints are, for long/timestamp values already known exact): in the domain of `partitionResultType`. NULL stays
 * NULL; `void` always gives NULL.
 */
export function applyTransform(t: Transform, source: string, value: IcebergValue | null): IcebergValue | null {
  if (value === null || t.kind === 'void') return null;
  switch (t.kind) {
    case 'identity':
      return isLongType(source) && typeof value === 'number' ? BigInt(value) : value;
    case 'bucket':
      return (bucketHash(source, value) & 0x7fffffff) % t.n;
    case 'truncate':
      return truncate(source, value, t.width);
    case 'hour':
      return floorDiv(micros(source, value), MICROS_PER_HOUR);
    case 'day':
      return daysOf(source, value);
    case 'month': {
      const d = new Date(daysOf(source, value) * MS_PER_DAY);
      return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
    }
    case 'year':
      return new Date(daysOf(source, value) * MS_PER_DAY).getUTCFullYear() - 1970;
  }
}

/**
 * Murmur3 x86_32 (seed 0) of the spec's hash input, as a signed 32-bit int: int/long/date/time/timestamps as an
 * 8-byte little-endian long, decimals as their minimal big-endian unscaled bytes, strings as UTF-8, others raw.
 */
export function bucketHash(source: string, value: IcebergValue): number {
  let bytes: Uint8Array;
  if (source === 'int' || source === 'date' || isLongType(source)) bytes = encodeValue('long', BigInt(value as number));
  else bytes = encodeValue(source, value);
  return murmur.x86.hash32(bytes, 0) | 0;
}

function truncate(source: string, value: IcebergValue, width: number): IcebergValue {
  if (source === 'int') return (value as number) - ((((value as number) % width) + width) % width);
  if (source === 'long' || source.startsWith('decimal')) {
    const v = BigInt(value as number | bigint);
    const w = BigInt(width);
    return v - (((v % w) + w) % w);
  }
  if (source === 'string') {
    const s = value as string;
    // Code points, not UTF-16 units: a surrogate pair counts once.
    if (s.length <= width) return s;
    return Array.from(s).slice(0, width).join('');
  }
  return (value as Uint8Array).slice(0, width);
}

function isLongType(source: string): boolean {
  return source === 'long' || source === 'time' || source.startsWith('timestamp');
}

/** A timestamp's microseconds (nanoseconds for `_ns` types are brought down to micros, floored). */
function micros(source: string, value: IcebergValue): number {
  const v =
    typeof value === 'bigint' ? (source.endsWith('_ns') ? floorDivBig(value, 1000n) : value) : (value as number);
  return Number(v);
}

/** Days since 1970-01-01 of a date (itself) or a timestamp (floored). */
function daysOf(source: string, value: IcebergValue): number {
  return source === 'date' ? (value as number) : floorDiv(micros(source, value), MICROS_PER_DAY);
}

/** ⌊a / b⌋ for integers a, b > 0, corrected where the division rounded across an integer. */
function floorDiv(a: number, b: number): number {
  const q = Math.floor(a / b);
  if (q * b > a) return q - 1;
  return (q + 1) * b <= a ? q + 1 : q;
}

function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/**
 * A partition value as Java's `Transform.toHumanString` prints it, for data file paths (`ts_day=2024-01-02`):
 * dates ISO, year/month/day/hour as `2024`, `2024-01`, `2024-01-02`, `2024-01-02-13`, decimals with their scale,
 * NULL as `null`. `resultType` is the transform's result type, `source` its column's.
 */
export function humanPartitionValue(t: Transform, source: string, value: IcebergValue | null): string {
  if (value === null) return 'null';
  const day = (d: number) => new Date(d * MS_PER_DAY).toISOString().slice(0, 10);
  switch (t.kind) {
    case 'year':
      return String(1970 + (value as number));
    case 'month': {
      const m = value as number;
      const y = 1970 + Math.floor(m / 12);
      return `${String(y).padStart(4, '0')}-${String(m - (y - 1970) * 12 + 1).padStart(2, '0')}`;
    }
    case 'day':
      return day(value as number);
    case 'hour': {
      const h = value as number;
      return `${day(Math.floor(h / 24))}-${String(h - Math.floor(h / 24) * 24).padStart(2, '0')}`;
    }
    case 'bucket':
      return String(value);
  }
  if (source === 'date') return day(value as number);
  if (source.startsWith('timestamp')) {
    const iso = new Date(Number(BigInt(value as bigint) / 1000n)).toISOString().slice(0, 19);
    return source.startsWith('timestamptz') ? `${iso}Z` : iso;
  }
  const dec = /^decimal\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(source);
  if (dec) return decimalText(BigInt(value as bigint), Number(dec[1]));
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return String(value);
}

function decimalText(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return neg ? `-${text}` : text;
}

/** `name=value` escaped as Java's URLEncoder does (space as `+`), one segment of a data file's folder. */
export function partitionPathSegment(name: string, human: string): string {
  return `${urlEncode(name)}=${urlEncode(human)}`;
}

function urlEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}
