// IS [NOT] DISTINCT FROM (NULL-aware equality), and GREATEST / LEAST (NULLs ignored).
import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { compare } from '../../arrow/kernels/numeric.js';
import { compareText } from '../../arrow/kernels/text-order.js';
import { intervalSpan, parseIntervalText } from '../../plan/interval-text.js';
import { BOOL, type DataType, FLOAT64 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import { choose } from './conditional.js';

/** The binder unified both sides; NULL is not distinct from NULL, and the result is never NULL. */
function distinctFn(name: string, distinct: boolean): ScalarFunction {
  return {
    name,
    strict: false,
    signature: (a) => (a.length === 2 ? { args: [a[0]!, a[0]!], returns: BOOL } : `${name}() takes two arguments`),
    evaluate: ([a, b], n) => {
      const out = new Uint8Array(n);
      const nullA = a!.type.id === 'null';
      const nullB = b!.type.id === 'null';
      const eq = nullA || nullB ? null : compare('=', spans(a!), spans(b!));
      const eqv = eq?.values as Uint8Array | undefined;
      for (let i = 0; i < n; i++) {
        const va = !nullA && (a!.valid === null || a!.valid[i] === 1);
        const vb = !nullB && (b!.valid === null || b!.valid[i] === 1);
        const same = va && vb ? eqv![i] === 1 : va === vb;
        out[i] = same === distinct ? 0 : 1;
      }
      return makeColumn(BOOL, out, null, n);
    },
  };
}

/** An interval column as float64 spans (PostgreSQL's interval equality: `1 mon` = `30 days`); others as they are. */
function spans(c: Column): Column {
  if (c.type.id !== 'interval' || c.values === null) return c;
  const read = reader(c);
  return makeColumn(
    FLOAT64,
    Float64Array.from({ length: c.length }, (_, i) => (read(i) as number | null) ?? 0),
    c.valid,
    c.length,
  );
}

/** Row i of a column as a comparable JS value, or null. */
function reader(c: Column): (i: number) => number | bigint | string | null {
  if (c.type.id === 'null') return () => null;
  if (c.type.id === 'interval') {
    // Interval text, ordered by span (a month as 30 days), as PostgreSQL orders intervals.
    const text = strings(c);
    return (i) => (c.valid !== null && c.valid[i] === 0 ? null : intervalSpan(parseIntervalText(text[i]!)));
  }
  const v = (c.type.id === 'utf8' ? strings(c) : c.values) as ArrayLike<number | bigint | string>;
  return (i) => (c.valid !== null && c.valid[i] === 0 ? null : v[i]!);
}

function order(x: number | bigint | string, y: number | bigint | string): number {
  if (typeof x === 'string') return compareText(x, y as string);
  // NaN is above every number (PostgreSQL).
  if (typeof x === 'number' && Number.isNaN(x)) return typeof y === 'number' && Number.isNaN(y) ? 0 : 1;
  if (typeof y === 'number' && Number.isNaN(y)) return -1;
  const z = y as number | bigint;
  return x < z ? -1 : x > z ? 1 : 0;
}

/** greatest / least over arguments of one type (the binder unified them); NULL only when all are NULL. */
function extremeFn(name: string, sign: 1 | -1): ScalarFunction {
  return {
    name,
    strict: false,
    signature: (a) => (a.length > 0 ? { args: a.map(() => a[0]!), returns: a[0]! } : `${name}() needs arguments`),
    evaluate: (args, n, returns: DataType) => {
      const reads = args.map(reader);
      const pick = new Int32Array(n).fill(-1);
      for (let i = 0; i < n; i++) {
        let best: number | bigint | string | null = null;
        for (let k = 0; k < args.length; k++) {
          const x = reads[k]!(i);
          if (x === null || (best !== null && sign * order(x, best) <= 0)) continue;
          best = x;
          pick[i] = k;
        }
      }
      return choose(args, pick, n, returns);
    },
  };
}

export const COMPARISON_FUNCTIONS: readonly ScalarFunction[] = [
  distinctFn('is_distinct_from', true),
  distinctFn('is_not_distinct_from', false),
  extremeFn('greatest', 1),
  extremeFn('least', -1),
];
