// EXTRACT(field FROM interval) and date_part(field, interval): PostgreSQL 15's interval fields.
import { type Column, strings } from '../../arrow/column.js';
import { type IntervalFields, parseIntervalText } from '../../plan/interval-text.js';

/** The fields PostgreSQL extracts from an interval; the others (dow, week, …) raise. */
export const INTERVAL_FIELDS: ReadonlySet<string> = new Set([
  'microseconds',
  'milliseconds',
  'second',
  'minute',
  'hour',
  'day',
  'month',
  'quarter',
  'year',
  'decade',
  'century',
  'millennium',
  'epoch',
]);

/** Decimal places of EXTRACT's numeric result per field. */
export function intervalFieldScale(field: string): number {
  return field === 'second' || field === 'epoch' ? 6 : field === 'milliseconds' ? 3 : 0;
}

const MICROS_PER_MINUTE = 60_000_000;
/** Seconds in a year of 365.25 days, a month of 30 days and a day of 24 hours, as epoch counts them. */
const YEAR_SECONDS = 31_557_600;
const MONTH_SECONDS = 2_592_000;
const DAY_SECONDS = 86_400;

/**
 * Field `field` of `iv` as an integer scaled by 10^intervalFieldScale(field): fields keep the interval's sign, and
 * years, decades … truncate toward zero (C division), as PostgreSQL's interval_part does.
 */
export function intervalField(field: string, iv: IntervalFields): number | bigint {
  const v = fieldValue(field, iv);
  // C's integer arithmetic has no negative zero (-360 % 12 is 0).
  return v === 0 ? 0 : v;
}

function fieldValue(field: string, { months, days, micros }: IntervalFields): number | bigint {
  const years = Math.trunc(months / 12);
  switch (field) {
    case 'microseconds':
    case 'milliseconds':
    case 'second':
      // Scaled (by 1, 10^3, 10^6) all three are the microseconds within the minute.
      return micros % MICROS_PER_MINUTE;
    case 'minute':
      return Math.trunc((micros % 3_600_000_000) / MICROS_PER_MINUTE);
    case 'hour':
      return Math.trunc(micros / 3_600_000_000);
    case 'day':
      return days;
    case 'month':
      return months % 12;
    case 'quarter':
      return Math.trunc((months % 12) / 3) + 1;
    case 'year':
      return years;
    case 'decade':
      return Math.trunc(years / 10);
    case 'century':
      return Math.trunc(years / 100);
    case 'millennium':
      return Math.trunc(years / 1000);
    default: {
      const seconds = years * YEAR_SECONDS + (months % 12) * MONTH_SECONDS + days * DAY_SECONDS;
      const exact = seconds * 1e6 + micros;
      return Number.isSafeInteger(exact) ? exact : BigInt(seconds) * 1_000_000n + BigInt(micros);
    }
  }
}

/** Row reader of an interval column's fields (the column holds PostgreSQL's text). */
export function intervalsOf(c: Column): (i: number) => IntervalFields {
  const text = strings(c);
  return (i) => parseIntervalText(text[i]!);
}
