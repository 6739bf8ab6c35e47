// EXTRACT(field FROM d) as PostgreSQL 14+ types it: numeric, exact (seconds keep their microseconds).
import { makeColumn, narrowExact } from '../../arrow/column.js';
import { ExecError } from '../../errors.js';
import { type DataType, decimal, typeName, UTF8 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import { extractField, fieldName, isTemporal, KNOWN_FIELDS, microsOf, TIME_FIELDS } from './date.js';
import { stringArg } from './helpers.js';

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
    if (a.length !== 2 || !source || !isTemporal(source) || typeof raw !== 'string')
      return `extract(field, date|timestamp) does not accept (${a.map(typeName).join(', ')})`;
    const field = fieldName(raw);
    if (!KNOWN_FIELDS.includes(field)) return `unit "${raw}" not recognized for type ${typeName(source)}`;
    if (source.id === 'date' && TIME_FIELDS.has(field)) return `unit "${raw}" not supported for type date`;
    return { args: [UTF8, source], returns: decimal(18, fieldScale(field, source)) };
  },
  evaluate: ([f, d], n, returns) => {
    const field = fieldName(stringArg(f!)[0] ?? '');
    if (n > 0 && !KNOWN_FIELDS.includes(field)) throw new ExecError(`unit "${field}" not recognized for extract`);
    const scale = returns.id === 'decimal' ? returns.scale : 0;
    const at = microsOf(d!);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) if (d!.valid === null || d!.valid[i] === 1) out[i] = scaledField(field, at(i), scale);
    return makeColumn(returns, narrowExact(BigInt64Array.from(out, (v) => BigInt(Math.round(v)))), d!.valid, n);
  },
};
