// Literal binding: numeric literals to int/bigint/numeric, interval text to months/days/micros.
import { NotSupportedError, PlanError } from '../../errors.js';
import type { IntervalValue, LiteralExpr } from '../../plan/expr/index.js';
import { decimal, FLOAT64, INT32, INT64, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';

const INT32_MAX = 2147483647;

/** `42` -> integer, `3000000000` -> bigint, `1.50` -> numeric(3,2), `1e3` -> double (PostgreSQL's rules). */
export function bindNumber(value: number | string): LiteralExpr {
  const text =
    typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value)
      ? BigInt(value).toString()
      : String(value);
  if (/^-?\d+$/.test(text)) {
    const v = BigInt(text);
    const abs = v < 0n ? -v : v;
    if (v <= BigInt(INT32_MAX) && v >= -BigInt(INT32_MAX) - 1n)
      return { kind: 'literal', value: Number(v), type: INT32 };
    if (abs <= 2n ** 53n - 1n) return { kind: 'literal', value: Number(v), type: INT64 };
    if (v <= 2n ** 63n - 1n && v >= -(2n ** 63n)) return { kind: 'literal', value: v, type: INT64 };
    return decimalLiteral(text.replace('-', ''), '', text.startsWith('-'));
  }
  const m = /^(-?)(\d*)\.(\d*)$/.exec(text);
  if (m) return decimalLiteral(m[2]!, m[3]!, m[1] === '-');
  const f = Number(text);
  if (Number.isNaN(f)) throw new PlanError(`invalid number ${text}`);
  return { kind: 'literal', value: f, type: FLOAT64 };
}

/** numeric(p,s) for digits `int.frac`; floe computes decimals exactly up to 18 digits. */
function decimalLiteral(int: string, frac: string, negative: boolean): LiteralExpr {
  const digits = `${int}${frac}`.replace(/^0+(?=\d)/, '');
  const scale = frac.length;
  let v = BigInt(digits || '0');
  if (v > 2n ** 63n - 1n)
    throw new NotSupportedError(`numeric literal ${negative ? '-' : ''}${int}.${frac} has more than 18 digits`);
  if (negative) v = -v;
  const precision = Math.max(digits.length, scale, 1);
  const safe = v <= 2n ** 53n - 1n && v >= -(2n ** 53n - 1n);
  return { kind: 'literal', value: safe ? Number(v) : v, type: decimal(precision, scale) };
}

/** A typed text literal (function arguments the binder synthesises). */
export function bindLiteral(text: string): LiteralExpr {
  return { kind: 'literal', value: text, type: UTF8 };
}

const UNIT_MICROS: Record<string, [keyof IntervalValue, number]> = {
  year: ['months', 12],
  month: ['months', 1],
  mon: ['months', 1],
  week: ['days', 7],
  day: ['days', 1],
  hour: ['micros', 3_600e6],
  minute: ['micros', 60e6],
  second: ['micros', 1e6],
  millisecond: ['micros', 1e3],
  microsecond: ['micros', 1],
};

/** `INTERVAL '3 day'`, `INTERVAL '90' DAY`, `INTERVAL '1 year 2 months'`, `INTERVAL '1 day 04:05:06.5'`. */
export function parseInterval(ast: Ast): IntervalValue {
  const text = String(ast.expr?.value ?? '').trim();
  const unitAfter = String(ast.unit ?? '').trim();
  const source = unitAfter ? `${text} ${unitAfter}` : text;
  const out = { months: 0, days: 0, micros: 0 };
  let matched = 0;
  // `[-]HH:MM[:SS[.ffffff]]`, the time part PostgreSQL prints and reads.
  for (const m of source.matchAll(/([+-]?)(\d+):(\d+)(?::(\d+(?:\.\d+)?))?/g)) {
    const abs = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1e6;
    out.micros += Math.round(m[1] === '-' ? -abs : abs);
    matched += m[0].length;
  }
  const re = /([+-]?\d+(?:\.\d+)?)\s*([a-z]+)/gi;
  for (const m of source.replace(/[+-]?\d+:\d+(?::\d+(?:\.\d+)?)?/g, ' ').matchAll(re)) {
    const unit = m[2]!.toLowerCase().replace(/s$/, '');
    const entry = UNIT_MICROS[unit === 'min' ? 'minute' : unit === 'sec' ? 'second' : unit];
    if (!entry) throw new PlanError(`invalid input syntax for type interval: "${source}"`);
    addField(out, entry, Number(m[1]));
    matched += m[0].length;
  }
  if (matched === 0) throw new PlanError(`invalid input syntax for type interval: "${source}"`);
  // PostgreSQL's fields are int32 months, int32 days and int64 microseconds.
  const int32 = (x: number) => x >= -2_147_483_648 && x <= 2_147_483_647;
  if (!int32(out.months) || !int32(out.days) || !(Math.abs(out.micros) <= 2 ** 63))
    throw new PlanError(`interval field value out of range: "${source}"`);
  return out;
}

const DAYS_PER_MONTH = 30;
const MICROS_PER_DAY = 86_400e6;

/**
 * Adds `value` units to `out` with PostgreSQL's spill of fractions (DecodeInterval): a fraction of a year is
 * rounded to whole months, of a month goes to days (30 to a month), of a day to microseconds, so every field
 * stays whole (`1.5 months` is `1 mon 15 days`, `1.5 days` is `1 day 12:00:00`).
 */
function addField(
  out: { months: number; days: number; micros: number },
  [field, factor]: [keyof IntervalValue, number],
  value: number,
): void {
  if (field === 'micros') {
    out.micros += Math.round(value * factor);
    return;
  }
  const whole = Math.trunc(value);
  let days = 0;
  if (field === 'months' && factor === 12) out.months += whole * 12 + Math.round((value - whole) * 12);
  else if (field === 'months') {
    out.months += whole * factor;
    days = (value - whole) * factor * DAYS_PER_MONTH;
  } else days = value * factor;
  const wholeDays = Math.trunc(days);
  out.days += wholeDays;
  out.micros += Math.round((days - wholeDays) * MICROS_PER_DAY);
}
