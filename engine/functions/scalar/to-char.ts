// to_char(date|timestamp|number, format) with PostgreSQL's template patterns; make_date and make_timestamp.
import type { Column } from '../../arrow/column.js';
import { cellText } from '../../arrow/format.js';
import { ExecError } from '../../errors.js';
import { DATE, FLOAT64, INT32, isNumeric, TIMESTAMP, typeName, UTF8 } from '../../plan/types.js';
import { MS_PER_DAY } from '../../plan/values.js';
import type { ScalarFunction } from '../function.js';
import { isoWeek, isTemporal, microsOf } from './date.js';
import { F64_OUT, INT32_OUT, mapRows, numberArg, stringArg, UTF8_OUT } from './helpers.js';
import { formatNumber, type NumberInput, type NumberKind } from './to-char-number.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface Parts {
  readonly d: Date;
  readonly micros: number;
}

/** A name in the case the pattern is written in: `MONTH`, `Month`, `month`; padded to 9 unless FM. */
function named(name: string, pattern: string, fill: boolean, width: number): string {
  const cased =
    pattern === pattern.toUpperCase()
      ? name.toUpperCase()
      : pattern[0] === pattern[0]!.toUpperCase()
        ? name
        : name.toLowerCase();
  return fill ? cased.padEnd(width, ' ') : cased;
}

const num = (v: number, width: number, fill: boolean) => (fill ? String(v).padStart(width, '0') : String(v));

/** Patterns longest first, so that `HH24` wins over `HH` and `YYYY` over `YY`. */
const PATTERNS: readonly [string, (p: Parts, fill: boolean, pattern: string) => string][] = [
  ['HH24', ({ d }, f) => num(d.getUTCHours(), 2, f)],
  ['HH12', ({ d }, f) => num(d.getUTCHours() % 12 || 12, 2, f)],
  ['IYYY', ({ d }, f) => num(isoWeek(d).year, 4, f)],
  ['YYYY', ({ d }, f) => num(d.getUTCFullYear(), 4, f)],
  ['MONTH', ({ d }, f, p) => named(MONTHS[d.getUTCMonth()]!, p, f, 9)],
  ['A.M.', ({ d }, _f, p) => named(d.getUTCHours() < 12 ? 'a.m.' : 'p.m.', p, false, 0)],
  ['P.M.', ({ d }, _f, p) => named(d.getUTCHours() < 12 ? 'a.m.' : 'p.m.', p, false, 0)],
  ['YYY', ({ d }, f) => num(d.getUTCFullYear() % 1000, 3, f)],
  ['MON', ({ d }, _f, p) => named(MONTHS[d.getUTCMonth()]!.slice(0, 3), p, false, 0)],
  ['DAY', ({ d }, f, p) => named(DAYS[d.getUTCDay()]!, p, f, 9)],
  ['DDD', ({ d }, f) => num(dayOfYear(d), 3, f)],
  ['IDDD', ({ d }, f) => num((isoWeek(d).week - 1) * 7 + ((d.getUTCDay() + 6) % 7) + 1, 3, f)],
  ['YY', ({ d }, f) => num(d.getUTCFullYear() % 100, 2, f)],
  ['MM', ({ d }, f) => num(d.getUTCMonth() + 1, 2, f)],
  ['DD', ({ d }, f) => num(d.getUTCDate(), 2, f)],
  ['DY', ({ d }, _f, p) => named(DAYS[d.getUTCDay()]!.slice(0, 3), p, false, 0)],
  ['HH', ({ d }, f) => num(d.getUTCHours() % 12 || 12, 2, f)],
  ['MI', ({ d }, f) => num(d.getUTCMinutes(), 2, f)],
  ['SS', ({ d }, f) => num(d.getUTCSeconds(), 2, f)],
  ['MS', ({ micros }, f) => num(Math.floor(mod(micros, 1e6) / 1e3), 3, f)],
  ['US', ({ micros }, f) => num(mod(micros, 1e6), 6, f)],
  ['AM', ({ d }, _f, p) => named(d.getUTCHours() < 12 ? 'am' : 'pm', p, false, 0)],
  ['PM', ({ d }, _f, p) => named(d.getUTCHours() < 12 ? 'am' : 'pm', p, false, 0)],
  ['IW', ({ d }, f) => num(isoWeek(d).week, 2, f)],
  ['WW', ({ d }, f) => num(Math.floor((dayOfYear(d) - 1) / 7) + 1, 2, f)],
  ['ID', ({ d }) => String(d.getUTCDay() || 7)],
  ['CC', ({ d }, f) => num(Math.ceil(d.getUTCFullYear() / 100), 2, f)],
  ['Y', ({ d }) => String(d.getUTCFullYear() % 10)],
  ['Q', ({ d }) => String(Math.floor(d.getUTCMonth() / 3) + 1)],
  ['D', ({ d }) => String(d.getUTCDay() + 1)],
  ['W', ({ d }) => String(Math.floor((d.getUTCDate() - 1) / 7) + 1)],
  ['J', ({ micros }) => String(Math.floor(micros / (MS_PER_DAY * 1000)) + 2440588)],
];

const mod = (a: number, m: number) => ((a % m) + m) % m;

function dayOfYear(d: Date): number {
  return (
    (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / MS_PER_DAY +
    1
  );
}

/** Formats one value; patterns match case-insensitively, names follow the pattern's case. */
export function formatTimestamp(micros: number, format: string): string {
  const parts = { d: new Date(Math.floor(micros / 1000)), micros };
  let out = '';
  let i = 0;
  while (i < format.length) {
    if (format[i] === '"') {
      const close = format.indexOf('"', i + 1);
      out += format.slice(i + 1, close < 0 ? format.length : close);
      i = close < 0 ? format.length : close + 1;
      continue;
    }
    if (format[i] === '\\' && i + 1 < format.length) {
      out += format[i + 1];
      i += 2;
      continue;
    }
    const fm = format.slice(i, i + 2).toUpperCase() === 'FM';
    const at = fm ? i + 2 : i;
    const hit = PATTERNS.find(([p]) => format.slice(at, at + p.length).toUpperCase() === p);
    if (!hit) {
      out += format[i];
      i++;
      continue;
    }
    const written = format.slice(at, at + hit[0].length);
    out += hit[1](parts, !fm, written);
    i = at + hit[0].length;
  }
  return out;
}

const toChar: ScalarFunction = {
  name: 'to_char',
  signature: (a) =>
    a.length === 2 && (isTemporal(a[0]!) || isNumeric(a[0]!)) && (a[1]!.id === 'utf8' || a[1]!.id === 'null')
      ? { args: [a[0]!, UTF8], returns: UTF8 }
      : `function to_char(${a.map(typeName).join(', ')}) does not exist`,
  evaluate: ([v, f], n) => {
    const formats = stringArg(f!);
    if (isNumeric(v!.type)) return numberToChar(v!, f!, formats, n);
    const at = microsOf(v!);
    return mapRows([v!, f!], n, UTF8, (i) => formatTimestamp(at(i), formats[i]!), UTF8_OUT);
  },
};

/** to_char over integers, numerics (exact digits) and doubles, each with its type's quirks (NumberKind). */
function numberToChar(v: Column, f: Column, formats: readonly string[], n: number): Column {
  const float = v.type.id === 'float64' ? numberArg(v) : null;
  const kind: NumberKind =
    v.type.id === 'int32' ? 'int4' : v.type.id === 'int64' ? 'int8' : v.type.id === 'float64' ? 'float8' : 'numeric';
  const input = (i: number): NumberInput => (float ? { float: float[i]! } : { exact: cellText(v, i)! });
  return mapRows([v, f], n, UTF8, (i) => formatNumber(input(i), formats[i]!, kind), UTF8_OUT);
}

/** Days since the epoch of y-m-d, or an error when the fields do not name a date. */
function dayNumber(y: number, m: number, d: number): number {
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  if (y === 0 || back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d)
    throw new ExecError(
      `date field value out of range: ${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
    );
  return t / MS_PER_DAY;
}

const makeDate: ScalarFunction = {
  name: 'make_date',
  signature: (a) =>
    a.length === 3 && a.every((t) => isNumeric(t) || t.id === 'null')
      ? { args: [INT32, INT32, INT32], returns: DATE }
      : `function make_date(${a.map(typeName).join(', ')}) does not exist`,
  evaluate: (args, n) => {
    const [y, m, d] = args.map(numberArg);
    return mapRows(args, n, DATE, (i) => dayNumber(y![i]!, m![i]!, d![i]!), INT32_OUT);
  },
};

const makeTimestamp: ScalarFunction = {
  name: 'make_timestamp',
  signature: (a) =>
    a.length === 6 && a.every((t) => isNumeric(t) || t.id === 'null')
      ? { args: [INT32, INT32, INT32, INT32, INT32, FLOAT64], returns: TIMESTAMP }
      : `function make_timestamp(${a.map(typeName).join(', ')}) does not exist`,
  evaluate: (args, n) => {
    const [y, mo, d, h, mi, s] = args.map(numberArg);
    return mapRows(
      args,
      n,
      TIMESTAMP,
      (i) => {
        if (h![i]! < 0 || h![i]! > 23 || mi![i]! < 0 || mi![i]! > 59 || s![i]! < 0 || s![i]! >= 60)
          throw new ExecError(`time field value out of range: ${h![i]}:${mi![i]}:${s![i]}`);
        return (
          dayNumber(y![i]!, mo![i]!, d![i]!) * MS_PER_DAY * 1000 +
          h![i]! * 3_600e6 +
          mi![i]! * 60e6 +
          Math.round(s![i]! * 1e6)
        );
      },
      F64_OUT,
    );
  },
};

export const TO_CHAR_FUNCTIONS: readonly ScalarFunction[] = [toChar, makeDate, makeTimestamp];
