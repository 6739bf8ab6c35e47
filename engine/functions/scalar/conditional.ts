// coalesce and nullif; the binder unifies their argument types before resolving them.
import { type Column, makeColumn, narrowExact, strings } from '../../arrow/column.js';
import { compare } from '../../arrow/kernels/numeric.js';
import { take } from '../../arrow/kernels/take.js';
import type { DataType } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';

function firstType(a: readonly DataType[]): DataType {
  return a.find((t) => t.id !== 'null') ?? a[0] ?? { id: 'null' };
}

/** Picks, per row, the first argument that is not NULL. */
const coalesce: ScalarFunction = {
  name: 'coalesce',
  strict: false,
  signature: (a) =>
    a.length > 0 ? { args: a.map(() => firstType(a)), returns: firstType(a) } : 'coalesce() needs arguments',
  evaluate: (args, n, returns) => {
    const pick = new Int32Array(n).fill(-1);
    let open = n;
    for (let k = 0; k < args.length && open > 0; k++) {
      const c = args[k]!;
      if (c.type.id === 'null') continue;
      for (let i = 0; i < n; i++) {
        if (pick[i] === -1 && (c.valid === null || c.valid[i] === 1)) {
          pick[i] = k;
          open--;
        }
      }
    }
    return choose(args, pick, n, returns);
  },
};

/** Builds a column taking row i from `args[pick[i]]` (NULL where pick is -1). */
export function choose(args: readonly Column[], pick: Int32Array, n: number, type: DataType): Column {
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const parts = args.map((c) => (c.type.id === 'null' ? null : take(c, idx, n)));
  const base = parts.find((p) => p !== null);
  if (!base) return makeColumn(type, null, new Uint8Array(n), n);
  // Text is read as strings (a part may hold UTF-8 bytes) and written into a fresh string array.
  const text = base.type.id === 'utf8';
  const reads = parts.map((p) =>
    p === null ? null : ((text ? strings(p) : p.values) as unknown as { [i: number]: unknown }),
  );
  // int64/decimal arguments may mix Float64 and BigInt64 storage: widen to BigInt64 when any is.
  const big = parts.some((p) => p?.values instanceof BigInt64Array);
  const values = big ? new BigInt64Array(n) : text ? new Array<string>(n).fill('') : base.values;
  const out = values as unknown as { [i: number]: unknown };
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const k = pick[i] as number;
    if (k < 0) continue;
    valid[i] = 1;
    const v = reads[k]![i];
    out[i] = big ? BigInt(v as number | bigint) : v;
  }
  return makeColumn(type, big ? narrowExact(values as BigInt64Array) : values, valid, n);
}

/** nullif(a, b): NULL where a = b, else a. */
const nullif: ScalarFunction = {
  name: 'nullif',
  strict: false,
  signature: (a) =>
    a.length === 2 ? { args: [firstType(a), firstType(a)], returns: a[0]! } : 'nullif() takes two arguments',
  evaluate: ([a, b], n) => {
    if (b!.type.id === 'null' || a!.type.id === 'null') return a!;
    const eq = compare('=', a!, b!);
    const valid = new Uint8Array(n);
    const eqv = eq.values as Uint8Array;
    for (let i = 0; i < n; i++) {
      const isValid = a!.valid === null || a!.valid[i] === 1;
      const equal = (eq.valid === null || eq.valid[i] === 1) && eqv[i] === 1;
      valid[i] = isValid && !equal ? 1 : 0;
    }
    return makeColumn(a!.type, a!.values, valid, n);
  },
};

export const CONDITIONAL_FUNCTIONS: readonly ScalarFunction[] = [coalesce, nullif];
