// EXTRACT(field FROM d) as PostgreSQL 14+ types it: numeric, exact (seconds keep their microseconds); intervals too.
import { type Column, MAX_EXACT, makeColumn } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import { type DataType, decimal, typeName, UTF8 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import {
  CIVIL_FIELDS,
  civilField,
  extractField,
  fieldName,
  isTemporal,
  KNOWN_FIELDS,
  microsOf,
  TIME_FIELDS,
} from './date.js';
import { stringArg } from './helpers.js';
import { INTERVAL_FIELDS, intervalField, intervalFieldScale, intervalsOf } from './interval-part.js';

const MICROS_PER_MINUTE = 60e6;

/** The scale PostgreSQL gives a field of a timestamp (a date's fields are all whole). */
function fieldScale(field: string, source: DataType): number {
  if (source.id === 'date') return 0;
  if (field === 'second' || field === 'epoch') return 6;
  return field === 'milliseconds' ? 3 : 0;
}

/** The field's value as a scaled integer at `fieldScale`. */
function scaledField(field: string, micros: number, scale: number): number {
  if (scale === 0) return extractField(field, micros);
  if (field === 'epoch') return micros;
  // second (scale 6) and milliseconds (scale 3) both scale to the microseconds within the minute.
  return ((micros % MICROS_PER_MINUTE) + MICROS_PER_MINUTE) % MICROS_PER_MINUTE;
}

/**
 * `extract(field, d)`: what the binder makes of EXTRACT(field FROM d). The field must be a constant (the
 * grammar makes it one), since it decides the result's scale. date_part stays double precision.
 */
export const extract: ScalarFunction = {
  name: 'extract',
  signature: (a, constants) => {
    const source = a[1];
    const raw = constants[0];
    if (a.length !== 2 || !source || !(isTemporal(source) || source.id === 'interval') || typeof raw !== 'string')
      return `extract(field, date|timestamp|interval) does not accept (${a.map(typeName).join(', ')})`;
    const field = fieldName(raw);
    if (source.id === 'interval') {
      if (!INTERVAL_FIELDS.has(field)) return `unit "${raw}" not supported for type interval`;
      return { args: [UTF8, source], returns: decimal(18, intervalFieldScale(field)) };
    }
    if (!KNOWN_FIELDS.includes(field)) return `unit "${raw}" not recognized for type ${typeName(source)}`;
    if (source.id === 'date' && TIME_FIELDS.has(field)) return `unit "${raw}" not supported for type date`;
    return { args: [UTF8, source], returns: decimal(18, fieldScale(field, source)) };
  },
  evaluate: ([f, d], n, returns) => {
    const field = fieldName(stringArg(f!)[0] ?? '');
    if (n > 0 && !KNOWN_FIELDS.includes(field)) throw new ExecError(`unit "${field}" not recognized for extract`);
    const scale = returns.id === 'decimal' ? returns.scale : 0;
    if (d!.type.id === 'interval') return extractInterval(field, d!, n, returns);
    const out = new Float64Array(n);
    const valid = d!.valid;
    if (d!.type.id === 'date' && CIVIL_FIELDS.has(field)) {
      // A date's year, quarter, month or day from its day number (no Date object per row: q9's extract(year)).
      const days = d!.values as Int32Array;
      for (let i = 0; i < n; i++) if (valid === null || valid[i] === 1) out[i] = civilField(field, days[i]!);
      return makeColumn(returns, out, valid, n);
    }
    const at = microsOf(d!);
    let exact = true;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const v = Math.round(scaledField(field, at(i), scale));
      out[i] = v;
      if (v > MAX_EXACT || v < -MAX_EXACT) exact = false;
    }
    // Scaled integers stay doubles while exact (the decimal representation); far-off epochs need 64 bits.
    return makeColumn(returns, exact ? out : BigInt64Array.from(out, (v) => BigInt(v)), valid, n);
  },
};

/** EXTRACT(field FROM interval): scaled integers, 64-bit where an epoch passes 2^53 µs. */
function extractInterval(field: string, d: Column, n: number, returns: DataType): Column {
  const read = intervalsOf(d);
  const values = new Array<number | bigint>(n).fill(0);
  for (let i = 0; i < n; i++) if (d.valid === null || d.valid[i] === 1) values[i] = intervalField(field, read(i));
  const big = values.some((v) => typeof v === 'bigint');
  const out = big ? BigInt64Array.from(values, (v) => BigInt(v)) : Float64Array.from(values as number[]);
  return makeColumn(returns, out, d.valid, n);
}
