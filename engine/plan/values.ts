// Text forms of SQL values (PostgreSQL's output), and the parsing of date/time literals; depends only on errors.ts.

import { ExecError } from '../errors.js';

export const MS_PER_DAY = 86_400_000;

/**
 * 'YYYY-MM-DD' for days since 1970-01-01 (proleptic Gregorian; years before 1 as PostgreSQL writes them,
 * '0044-03-15 BC'). A value that is no whole number (a NaN from arithmetic gone wrong) is an error, never text.
 */
export function formatDate(days: number): string {
  const { year, month, day } = civilFromDays(checkedWhole(days, 'date'));
  return `${yearText(year)}-${pad(month, 2)}-${pad(day, 2)}${year <= 0 ? ' BC' : ''}`;
}

/** 'YYYY-MM-DD HH:MM:SS[.ffffff]' for microseconds since the epoch ('… BC' after the time, as PostgreSQL). */
export function formatTimestamp(micros: number): string {
  const days = Math.floor(checkedWhole(micros, 'timestamp') / MICROS_PER_DAY);
  const { year, month, day } = civilFromDays(days);
  const inDay = micros - days * MICROS_PER_DAY;
  const secs = Math.floor(inDay / 1_000_000);
  const frac = inDay - secs * 1_000_000;
  const clock = `${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}`;
  const base = `${yearText(year)}-${pad(month, 2)}-${pad(day, 2)} ${clock}`;
  const text = frac === 0 ? base : `${base}.${pad(frac, 6).replace(/0+$/, '')}`;
  return year <= 0 ? `${text} BC` : text;
}

const MICROS_PER_DAY = MS_PER_DAY * 1000;

function checkedWhole(x: number, type: string): number {
  if (!Number.isInteger(x)) throw new ExecError(`${type} out of range`);
  return x;
}

/** Year 0 is 1 BC: PostgreSQL writes the year before 1 as 0001 … BC. */
function yearText(year: number): string {
  return pad(year <= 0 ? 1 - year : year, 4);
}

/** Howard Hinnant's civil_from_days: integer arithmetic, exact for any day number (JavaScript's Date is not). */
function civilFromDays(z: number): { year: number; month: number; day: number } {
  const shifted = z + 719468;
  const era = Math.floor(shifted / 146097);
  const doe = shifted - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day: doy - Math.floor((153 * mp + 2) / 5) + 1 };
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

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

const DATE_RE = /^\s*(\d{1,4})-(\d{1,2})-(\d{1,2})\s*$/;
const TIMESTAMP_RE =
  /^\s*(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?\s*$/;

/** Days since 1970-01-01 for 'YYYY-MM-DD', or null when the text is not a valid date. */
export function parseDate(text: string): number | null {
  const m = DATE_RE.exec(text);
  if (!m) return null;
  return daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Microseconds since the epoch for 'YYYY-MM-DD[ HH:MM[:SS[.ffffff]]][Z|±HH[:MM]]', or null. */
export function parseTimestamp(text: string): number | null {
  const m = TIMESTAMP_RE.exec(text);
  if (!m) return null;
  const days = daysFromCivil(Number(m[1]), Number(m[2]), Number(m[3]));
  if (days === null) return null;
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const frac = m[7] ? Number(m[7].padEnd(6, '0')) : 0;
  let micros = ((days * 24 + h) * 60 + mi) * 60 * 1e6 + s * 1e6 + frac;
  if (m[8] && m[8] !== 'Z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const digits = m[8].slice(1).replace(':', '');
    micros -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60 * 1e6;
  }
  return micros;
}

/** Days since 1970-01-01 of a calendar date, or null when the date does not exist. */
export function daysFromCivil(y: number, m: number, d: number): number | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1 || y > 9999) return null;
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not.
  back.setUTCFullYear(y, m - 1, d);
  if (back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
  return Math.round(back.getTime() / MS_PER_DAY);
}
