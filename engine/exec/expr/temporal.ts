// date/timestamp ± interval: calendar months (clamping the day, as PostgreSQL), then days, then microseconds.
import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import type { IntervalValue } from '../../plan/expr/index.js';
import { formatInterval, type IntervalFields, intervalSpan, parseIntervalText } from '../../plan/interval-text.js';
import { FLOAT64, INTERVAL } from '../../plan/types.js';
import { MS_PER_DAY } from '../../plan/values.js';

const MICROS_PER_DAY = MS_PER_DAY * 1000;

/** `t + sign * interval` for a date or timestamp column; the result is a timestamp. */
export function addInterval(t: Column, iv: IntervalValue, sign: 1 | -1): Column {
  const n = t.length;
  const out = new Float64Array(n);
  const v = t.values as Int32Array | Float64Array;
  const isDate = t.type.id === 'date';
  for (let i = 0; i < n; i++) {
    if (t.valid !== null && t.valid[i] === 0) continue;
    out[i] = shifted(isDate ? (v[i] as number) * MICROS_PER_DAY : (v[i] as number), iv, sign);
  }
  return makeColumn({ id: 'timestamp', tz: null }, out, t.valid, n);
}

function shifted(micros: number, iv: IntervalValue, sign: 1 | -1): number {
  const moved = iv.months === 0 ? micros : addMonths(micros, sign * iv.months);
  return moved + sign * (iv.days * MICROS_PER_DAY + iv.micros);
}

function addMonths(micros: number, months: number): number {
  const dayMicros = ((micros % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY;
  const d = new Date((micros - dayMicros) / 1000);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  const lastDay = new Date(Date.UTC(2000, m + 1, 0)).getUTCDate();
  const leapAdjusted = m === 1 ? (isLeap(y) ? 29 : 28) : lastDay;
  const out = new Date(0);
  out.setUTCFullYear(y, m, Math.min(d.getUTCDate(), leapAdjusted));
  return out.getTime() * 1000 + dayMicros;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/**
 * An interval column (text) as float64 spans in microseconds, a month counted as 30 days: PostgreSQL's
 * comparison key, exact while a span stays under 2^53 µs (about 285 years).
 */
export function intervalSpans(c: Column): Column {
  if (c.type.id !== 'interval' || c.values === null) return c;
  const text = strings(c);
  const out = new Float64Array(c.length);
  for (let i = 0; i < c.length; i++)
    if (c.valid === null || c.valid[i] === 1) out[i] = intervalSpan(parseIntervalText(text[i]!));
  return makeColumn(FLOAT64, out, c.valid, c.length);
}

/** Each valid row of interval columns read as fields, combined by `f` into a new interval column (NULL in, NULL out). */
export function mapIntervals(cols: readonly Column[], f: (ivs: IntervalFields[]) => IntervalFields): Column {
  const n = cols[0]!.length;
  const texts = cols.map((c) => (c.values === null ? null : strings(c)));
  const out = new Array<string>(n).fill('');
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (cols.some((c, k) => texts[k] === null || (c.valid !== null && c.valid[i] === 0))) continue;
    out[i] = formatInterval(f(texts.map((t) => parseIntervalText(t![i]!))));
    valid[i] = 1;
  }
  return makeColumn(INTERVAL, out, valid, n);
}

/** -interval, and interval ± interval: field by field, as PostgreSQL (no carrying between fields). */
export const negateInterval = ([a]: IntervalFields[]): IntervalFields =>
  inIntervalRange({ months: -a!.months || 0, days: -a!.days || 0, micros: -a!.micros || 0 });

export function addIntervals(sign: 1 | -1): (ivs: IntervalFields[]) => IntervalFields {
  return ([a, b]) =>
    inIntervalRange({
      months: a!.months + sign * b!.months,
      days: a!.days + sign * b!.days,
      micros: a!.micros + sign * b!.micros,
    });
}

/** PostgreSQL's fields are int32 months, int32 days and int64 microseconds; past them, its error. */
function inIntervalRange(iv: IntervalFields): IntervalFields {
  const int32 = (x: number) => x >= -2_147_483_648 && x <= 2_147_483_647;
  if (!int32(iv.months) || !int32(iv.days) || !(Math.abs(iv.micros) <= 2 ** 63))
    throw new ExecError('interval out of range');
  return iv;
}

/** `t ± iv` row by row, for an interval that is not a constant (age(…), a CASE). */
export function addIntervalRows(t: Column, iv: Column, sign: 1 | -1): Column {
  const n = t.length;
  const out = new Float64Array(n);
  const valid = new Uint8Array(n);
  const text = iv.values === null ? null : strings(iv);
  const v = t.values as Int32Array | Float64Array;
  const isDate = t.type.id === 'date';
  for (let i = 0; i < n; i++) {
    if (text === null || (t.valid !== null && t.valid[i] === 0) || (iv.valid !== null && iv.valid[i] === 0)) continue;
    const micros = isDate ? (v[i] as number) * MICROS_PER_DAY : (v[i] as number);
    out[i] = shifted(micros, parseIntervalText(text[i]!), sign);
    valid[i] = 1;
  }
  return makeColumn({ id: 'timestamp', tz: null }, out, valid, n);
}
