// Interval values as PostgreSQL prints them (IntervalStyle postgres), and their order: months, days, microseconds.

/** An interval's three fields, as PostgreSQL keeps them (no normalisation between them). */
export interface IntervalFields {
  readonly months: number;
  readonly days: number;
  readonly micros: number;
}

const MICROS_PER_HOUR = 3_600_000_000;
const MICROS_PER_MINUTE = 60_000_000;
const MICROS_PER_SECOND = 1_000_000;

/**
 * `1 year 2 mons 3 days 04:05:06.5`, `-1 years +2 mons`, `-10 mons -3 days +04:05:06`, `00:00:00`: each nonzero
 * field in turn, a `+` on a positive field right after a negative one (EncodeInterval's rule), the time part when
 * it is nonzero or everything else is zero.
 */
export function formatInterval({ months, days, micros }: IntervalFields): string {
  const parts: string[] = [];
  let before = false;
  const field = (value: number, unit: string) => {
    if (value === 0) return;
    parts.push(`${before && value > 0 ? '+' : ''}${value} ${unit}${value === 1 ? '' : 's'}`);
    before = value < 0;
  };
  field(Math.trunc(months / 12), 'year');
  field(months % 12, 'mon');
  field(days, 'day');
  if (micros !== 0 || parts.length === 0)
    parts.push(`${micros < 0 ? '-' : before ? '+' : ''}${clock(Math.abs(micros))}`);
  return parts.join(' ');
}

/** `HH:MM:SS[.ffffff]` (hours past 24 allowed; trailing zeros of the fraction dropped). */
function clock(micros: number): string {
  const hours = Math.floor(micros / MICROS_PER_HOUR);
  const minutes = Math.floor((micros % MICROS_PER_HOUR) / MICROS_PER_MINUTE);
  const seconds = Math.floor((micros % MICROS_PER_MINUTE) / MICROS_PER_SECOND);
  const fraction = micros % MICROS_PER_SECOND;
  const base = `${two(hours)}:${two(minutes)}:${two(seconds)}`;
  return fraction === 0 ? base : `${base}.${String(fraction).padStart(6, '0').replace(/0+$/, '')}`;
}

const two = (n: number) => String(n).padStart(2, '0');

const UNIT_RE = /^([+-]?\d+) (year|mon|day)s?$/;
const CLOCK_RE = /^([+-]?)(\d+):(\d\d):(\d\d)(?:\.(\d+))?$/;

/** Reads `formatInterval`'s text back (interval columns hold that text). */
export function parseIntervalText(text: string): IntervalFields {
  let months = 0;
  let days = 0;
  let micros = 0;
  const words = text.split(' ');
  for (let i = 0; i < words.length; i++) {
    const clockMatch = CLOCK_RE.exec(words[i]!);
    if (clockMatch) {
      const [, sign, h, m, s, f = ''] = clockMatch;
      const abs = (Number(h) * 3600 + Number(m) * 60 + Number(s)) * MICROS_PER_SECOND + Number(f.padEnd(6, '0'));
      micros = sign === '-' ? -abs : abs;
      continue;
    }
    const unit = UNIT_RE.exec(`${words[i]} ${words[i + 1]}`);
    if (!unit) throw new Error(`not an interval: ${text}`);
    const value = Number(unit[1]);
    if (unit[2] === 'year') months += 12 * value;
    else if (unit[2] === 'mon') months += value;
    else days += value;
    i++;
  }
  return { months, days, micros };
}

/** PostgreSQL's interval order: by the span with a month as 30 days and a day as 24 hours (so `1 mon` = `30 days`). */
export function intervalSpan({ months, days, micros }: IntervalFields): number {
  return (months * 30 + days) * 86_400 * MICROS_PER_SECOND + micros;
}
