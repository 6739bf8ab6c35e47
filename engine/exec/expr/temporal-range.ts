// Computed dates and timestamps outside floe's range raise PostgreSQL's "date/timestamp out of range", never print NaN.
import type { Column } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import type { PhysicalExpr } from './physical-expr.js';

const MICROS_PER_DAY = 86_400_000_000;
/** 4714-11-24 BC (Julian day 0): PostgreSQL's first date, in days since 1970-01-01. */
export const MIN_DATE = -2_440_588;
/**
 * 275760-09-12: the last whole day JavaScript's Date holds (floe formats and extracts through it). PostgreSQL's
 * dates go on to 5874897 and its timestamps to 294276; floe stops earlier, with the same error.
 */
export const MAX_DATE = 99_999_999;
export const MIN_TIMESTAMP = MIN_DATE * MICROS_PER_DAY;
export const MAX_TIMESTAMP = (MAX_DATE + 1) * MICROS_PER_DAY - 1;

/** A date or timestamp column, checked: every valid row in range (a NaN is not). */
export function inTemporalRange(c: Column): Column {
  const date = c.type.id === 'date';
  if (!date && c.type.id !== 'timestamp') return c;
  const [lo, hi] = date ? [MIN_DATE, MAX_DATE] : [MIN_TIMESTAMP, MAX_TIMESTAMP];
  const v = c.values as ArrayLike<number>;
  for (let i = 0; i < c.length; i++) {
    const x = v[i]!;
    if (!(x >= lo && x <= hi) && (c.valid === null || c.valid[i] === 1))
      throw new ExecError(`${date ? 'date' : 'timestamp'} out of range`);
  }
  return c;
}

/** `inner`, with its date or timestamp results checked by `inTemporalRange`. */
export function checkedTemporal(inner: PhysicalExpr): PhysicalExpr {
  return { evaluate: (b) => inTemporalRange(inner.evaluate(b)) };
}
