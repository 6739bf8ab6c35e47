// Date and time functions: extract / date_part and date_trunc over dates and timestamps.
import type { Column } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import { type DataType, FLOAT64, TIMESTAMP, typeName, UTF8 } from '../../plan/types.js';
import { MS_PER_DAY } from '../../plan/values.js';
import type { ScalarFunction } from '../function.js';
import { F64_OUT, mapRows, stringArg } from './helpers.js';
import { INTERVAL_FIELDS, intervalField, intervalFieldScale, intervalsOf } from './interval-part.js';

const MICROS_PER_DAY = MS_PER_DAY * 1000;

export function isTemporal(t: DataType): boolean {
  return t.id === 'date' || t.id === 'timestamp';
}

/** Microseconds since the epoch of row i (dates at midnight). */
export function microsOf(c: Column): (i: number) => number {
  const v = c.values as Int32Array | Float64Array;
  return c.type.id === 'date' ? (i) => (v[i] as number) * MICROS_PER_DAY : (i) => v[i] as number;
}

/** Fields `civilField` computes from a day number. */
export const CIVIL_FIELDS: ReadonlySet<string> = new Set(['year', 'quarter', 'month', 'day']);

/**
 * Year, quarter, month or day of the month of day number `z` (days since 1970-01-01, proleptic Gregorian), by
 * Howard Hinnant's civil_from_days: integer arithmetic only.
 */
export function civilField(field: string, z: number): number {
  const shifted = z + 719468;
  const era = Math.floor(shifted / 146097);
  const doe = shifted - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  switch (field) {
    case 'year':
      return yoe + era * 400 + (month <= 2 ? 1 : 0);
    case 'month':
      return month;
    case 'quarter':
      return Math.floor((month - 1) / 3) + 1;
    default:
      return doy - Math.floor((153 * mp + 2) / 5) + 1;
  }
}

/** The field's value at `micros` (double precision: seconds carry their fraction). */
export function extractField(field: string, micros: number): number {
  const d = new Date(Math.floor(micros / 1000));
  switch (field) {
    case 'year':
      return d.getUTCFullYear();
    case 'quarter':
      return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'month':
      return d.getUTCMonth() + 1;
    case 'day':
      return d.getUTCDate();
    case 'dow':
      return d.getUTCDay();
    case 'isodow':
      return d.getUTCDay() || 7;
    case 'doy':
      return (
        Math.floor(
          (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) /
            MS_PER_DAY,
        ) + 1
      );
    case 'hour':
      return d.getUTCHours();
    case 'minute':
      return d.getUTCMinutes();
    case 'second':
      return (((micros % 60e6) + 60e6) % 60e6) / 1e6;
    case 'milliseconds':
      return (((micros % 60e6) + 60e6) % 60e6) / 1e3;
    case 'microseconds':
      return ((micros % 60e6) + 60e6) % 60e6;
    case 'epoch':
      return micros / 1e6;
    case 'week':
      return isoWeek(d).week;
    case 'isoyear':
      return isoWeek(d).year;
    case 'decade':
      return Math.floor(d.getUTCFullYear() / 10);
    case 'century':
      return Math.ceil(d.getUTCFullYear() / 100);
    case 'millennium':
      return Math.ceil(d.getUTCFullYear() / 1000);
    default:
      throw new ExecError(`unit "${field}" not recognized for extract`);
  }
}

/** ISO 8601 week number and week-based year: weeks start on Monday; week 1 holds the year's first Thursday. */
export function isoWeek(d: Date): { week: number; year: number } {
  const day = Math.floor(d.getTime() / MS_PER_DAY);
  const thursday = day - ((d.getUTCDay() + 6) % 7) + 3;
  const year = new Date(thursday * MS_PER_DAY).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1) / MS_PER_DAY) / 7) + 1;
  return { week, year };
}

/** Singular and abbreviated spellings PostgreSQL accepts, to the canonical field name. */
const FIELD_ALIASES: Record<string, string> = {
  years: 'year',
  months: 'month',
  mon: 'month',
  days: 'day',
  hours: 'hour',
  minutes: 'minute',
  min: 'minute',
  seconds: 'second',
  sec: 'second',
  millisecond: 'milliseconds',
  ms: 'milliseconds',
  microsecond: 'microseconds',
  us: 'microseconds',
  weeks: 'week',
  quarters: 'quarter',
  decades: 'decade',
  centuries: 'century',
  millenniums: 'millennium',
};

/** The canonical name of an EXTRACT / date_part field. */
export function fieldName(field: string): string {
  const f = field.toLowerCase();
  return FIELD_ALIASES[f] ?? f;
}

export const TIME_FIELDS = new Set(['hour', 'minute', 'second', 'milliseconds', 'microseconds']);
export const KNOWN_FIELDS = [
  'week',
  'isoyear',
  'milliseconds',
  'microseconds',
  'millennium',
  'year',
  'quarter',
  'month',
  'day',
  'dow',
  'isodow',
  'doy',
  'hour',
  'minute',
  'second',
  'epoch',
  'decade',
  'century',
];

/** date_part('field', d): the binder turns EXTRACT(field FROM d) into this call. */
const datePart: ScalarFunction = {
  name: 'date_part',
  signature: (a) =>
    a.length === 2 && (isTemporal(a[1]!) || a[1]!.id === 'interval')
      ? // double precision, as PostgreSQL's date_part: SECOND and EPOCH carry fractions.
        { args: [UTF8, a[1]!], returns: FLOAT64 }
      : `date_part(text, date|timestamp|interval) does not accept (${a.map(typeName).join(', ')})`,
  evaluate: ([f, d], n) => {
    const fields = stringArg(f!);
    if (d!.type.id === 'interval') return intervalPart(f!, d!, fields, n);
    const at = microsOf(d!);
    const field0 = fieldName(fields[0] ?? '');
    if (n > 0 && !KNOWN_FIELDS.includes(field0)) throw new ExecError(`unit "${field0}" not recognized for date_part`);
    if (n > 0 && d!.type.id === 'date' && TIME_FIELDS.has(field0))
      throw new ExecError(`unit "${field0}" not supported for type date`);
    return mapRows([f!, d!], n, FLOAT64, (i) => extractField(fieldName(fields[i]!), at(i)), F64_OUT);
  },
};

const TRUNC_UNITS = [
  'microseconds',
  'millisecond',
  'second',
  'minute',
  'hour',
  'day',
  'week',
  'month',
  'quarter',
  'year',
  'decade',
  'century',
];

export function truncMicros(unit: string, micros: number): number {
  const d = new Date(Math.floor(micros / 1000));
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (unit) {
    case 'year':
      return Date.UTC(y, 0, 1) * 1000;
    case 'quarter':
      return Date.UTC(y, m - (m % 3), 1) * 1000;
    case 'month':
      return Date.UTC(y, m, 1) * 1000;
    case 'week': {
      const day = Math.floor(micros / MICROS_PER_DAY);
      return (day - ((((day + 3) % 7) + 7) % 7)) * MICROS_PER_DAY;
    }
    case 'day':
      return Math.floor(micros / MICROS_PER_DAY) * MICROS_PER_DAY;
    case 'hour':
      return Math.floor(micros / 3_600e6) * 3_600e6;
    case 'minute':
      return Math.floor(micros / 60e6) * 60e6;
    case 'second':
      return Math.floor(micros / 1e6) * 1e6;
    case 'millisecond':
      return Math.floor(micros / 1e3) * 1e3;
    case 'decade':
      return Date.UTC(y - (y % 10), 0, 1) * 1000;
    case 'century':
      return Date.UTC(Math.floor((y - 1) / 100) * 100 + 1, 0, 1) * 1000;
    default:
      return micros;
  }
}

const dateTrunc: ScalarFunction = {
  name: 'date_trunc',
  signature: (a) =>
    a.length === 2 && isTemporal(a[1]!)
      ? { args: [UTF8, a[1]!], returns: TIMESTAMP }
      : `date_trunc(text, date|timestamp) does not accept (${a.map(typeName).join(', ')})`,
  evaluate: ([u, d], n) => {
    const units = stringArg(u!);
    const at = microsOf(d!);
    return mapRows(
      [u!, d!],
      n,
      TIMESTAMP,
      (i) => {
        const unit = units[i]!.toLowerCase().replace(/s$/, '');
        if (!TRUNC_UNITS.includes(unit) && !TRUNC_UNITS.includes(`${unit}s`))
          throw new ExecError(`unit "${units[i]}" not recognized for date_trunc`);
        return truncMicros(unit, at(i));
      },
      F64_OUT,
    );
  },
};

/** date_part(field, interval) as double precision. */
function intervalPart(f: Column, d: Column, fields: readonly string[], n: number): Column {
  const read = intervalsOf(d);
  return mapRows(
    [f, d],
    n,
    FLOAT64,
    (i) => {
      const field = fieldName(fields[i]!);
      if (!INTERVAL_FIELDS.has(field)) throw new ExecError(`unit "${fields[i]}" not supported for type interval`);
      return Number(intervalField(field, read(i))) / 10 ** intervalFieldScale(field);
    },
    F64_OUT,
  );
}

export const DATE_FUNCTIONS: readonly ScalarFunction[] = [datePart, dateTrunc];
