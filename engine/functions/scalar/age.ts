// age(timestamp, timestamp) and age(timestamp): PostgreSQL's symbolic difference in years, months and days.
import type { Column } from '../../arrow/column.js';
import { formatInterval, type IntervalFields } from '../../plan/interval-text.js';
import { INTERVAL, typeName } from '../../plan/types.js';
import { MS_PER_DAY } from '../../plan/values.js';
import type { ScalarFunction } from '../function.js';
import { isTemporal, microsOf } from './date.js';
import { mapRows, UTF8_OUT } from './helpers.js';

const MICROS_PER_DAY = MS_PER_DAY * 1000;

interface Civil {
  year: number;
  month: number;
  day: number;
  /** Microseconds since midnight. */
  time: number;
}

function civil(micros: number): Civil {
  const day = Math.floor(micros / MICROS_PER_DAY);
  const d = new Date(day * MS_PER_DAY);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    time: micros - day * MICROS_PER_DAY,
  };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * timestamp_age: field-by-field differences of the later minus the earlier value, borrowing from the next larger
 * field; a borrowed month has the length of the earlier value's month; the result is negated when t1 < t2.
 */
export function ageFields(t1: number, t2: number): IntervalFields {
  const negative = t1 < t2;
  const [hi, lo] = negative ? [civil(t2), civil(t1)] : [civil(t1), civil(t2)];
  let time = hi.time - lo.time;
  let day = hi.day - lo.day;
  let month = hi.month - lo.month;
  let year = hi.year - lo.year;
  if (time < 0) [time, day] = [time + MICROS_PER_DAY, day - 1];
  // PostgreSQL borrows the month length of t1 when t1 < t2, of t2 otherwise: the earlier value either way.
  while (day < 0) [day, month] = [day + daysInMonth(lo.year, lo.month), month - 1];
  while (month < 0) [month, year] = [month + 12, year - 1];
  const signed = (x: number) => (negative && x !== 0 ? -x : x);
  return { months: signed(year * 12 + month), days: signed(day), micros: signed(time) };
}

/** Midnight (UTC) of today, in microseconds: age(t) is age(current_date, t). */
function todayMicros(): number {
  return Math.floor(Date.now() / MS_PER_DAY) * MICROS_PER_DAY;
}

export const age: ScalarFunction = {
  name: 'age',
  signature: (a) =>
    (a.length === 1 || a.length === 2) && a.every((t) => isTemporal(t) || t.id === 'null')
      ? { args: a, returns: INTERVAL }
      : `function age(${a.map(typeName).join(', ')}) does not exist`,
  evaluate: (args, n) => {
    const [from, to] = args.length === 2 ? args.map(microsOf) : [() => todayMicros(), microsOf(args[0]!)];
    const out = (i: number) => formatInterval(ageFields(from!(i), to!(i)));
    return mapRows(args as Column[], n, INTERVAL, out, UTF8_OUT);
  },
};
