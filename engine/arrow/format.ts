// Canonical text of a value (PostgreSQL's output forms), for serializers, EXPLAIN and CAST to text.
import type { DataType } from '../plan/types.js';
import { type Column, exactAt, strings } from './column.js';

const MS_PER_DAY = 86_400_000;

/** 'YYYY-MM-DD' for days since 1970-01-01 (proleptic Gregorian, years 1-9999). */
export function formatDate(days: number): string {
  const d = new Date(days * MS_PER_DAY);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

/** 'YYYY-MM-DD HH:MM:SS[.ffffff]' for microseconds since the epoch. */
export function formatTimestamp(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const frac = micros - Math.floor(micros / 1_000_000) * 1_000_000;
  const base = `${formatDate(Math.floor(ms / MS_PER_DAY))} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  return frac === 0 ? base : `${base}.${pad(frac, 6).replace(/0+$/, '')}`;
}

/** Exact decimal text of a scaled integer: (12345, 2) -> '123.45'. */
export function formatDecimal(scaled: number | bigint, scale: number): string {
  const neg = scaled < 0;
  let digits = (neg ? -BigInt(scaled) : BigInt(scaled)).toString();
  if (scale === 0) return neg ? `-${digits}` : digits;
  if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
  const text = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return neg ? `-${text}` : text;
}

/** PostgreSQL's float8 output: shortest round-trip digits, 'NaN', 'Infinity', '-Infinity'. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

/** Text of row i, or null when the value is NULL. */
export function cellText(col: Column, i: number): string | null {
  if (col.valid !== null && col.valid[i] === 0) return null;
  return valueText(col.type, col, i);
}

function valueText(type: DataType, col: Column, i: number): string | null {
  switch (type.id) {
    case 'null':
      return null;
    case 'bool':
      return (col.values as Uint8Array)[i] ? 'true' : 'false';
    case 'int32':
      return String((col.values as Int32Array)[i]);
    case 'int64':
      return String(exactAt(col, i));
    case 'float64':
      return formatFloat((col.values as Float64Array)[i] as number);
    case 'decimal':
      return formatDecimal(exactAt(col, i), type.scale);
    case 'utf8':
      return strings(col)[i] as string;
    case 'date':
      return formatDate((col.values as Int32Array)[i] as number);
    case 'timestamp':
      return formatTimestamp((col.values as Float64Array)[i] as number);
    case 'interval':
      return String((col.values as Float64Array)[i]);
  }
}

/** How a value of this type is written in JSON: bare number, bare boolean or quoted string. */
export function jsonKind(type: DataType): 'number' | 'bool' | 'string' {
  switch (type.id) {
    case 'int32':
    case 'int64':
    case 'decimal':
    case 'float64':
      return 'number';
    case 'bool':
      return 'bool';
    default:
      return 'string';
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
