// `x [NOT] IN (list)` with SQL's NULL rules: no match and a NULL in the list gives NULL.

import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { compare } from '../../arrow/kernels/numeric.js';
import type { InListExpr } from '../../plan/expr/index.js';
import { or } from './logic.js';
import type { PhysicalExpr } from './physical-expr.js';
import { intervalSpans } from './temporal.js';
import { matchUtf8Literals } from './utf8-match.js';

type Key = number | bigint | string;

/** A hashable key per row: numbers (scaled decimals), bigints past 2^53, or strings. */
function keys(c: Column): ArrayLike<Key> {
  if (c.type.id === 'utf8') return strings(c);
  return (c.values as ArrayLike<number> | null) ?? [];
}

export function evaluateInList(e: InListExpr, expr: PhysicalExpr, list: PhysicalExpr[]): PhysicalExpr {
  const constant = e.list.every((x) => x.kind === 'literal');
  return {
    evaluate(batch) {
      // Intervals compare by span ('1 mon' = '30 days'), not by their text.
      const x = intervalSpans(expr.evaluate(batch));
      if (!constant)
        return generic(
          x,
          list.map((l) => intervalSpans(l.evaluate(batch))),
          e.negated,
        );
      // Literals only: each is read once, from a one-row batch (its columns stay longer than that, which only an
      // expression that reads no column may be given: a CASE over a column then saw more rows than the batch had).
      const items = list.map((l) => intervalSpans(l.evaluate(batch.length === 0 ? batch : { ...batch, length: 1 })));
      const set = new Set<Key>();
      let listHasNull = false;
      for (const c of items) {
        if (c.length === 0) continue;
        if (c.type.id === 'null' || (c.valid !== null && c.valid[0] === 0)) listHasNull = true;
        else set.add(normal(keys(c)[0] as Key));
      }
      const n = x.length;
      const byBytes = matchUtf8Literals(x, [...set] as string[]);
      if (byBytes !== null) return inListResult(x, byBytes, listHasNull, e.negated);
      const byNumbers = matchNumbers(x, set);
      if (byNumbers !== null) return inListResult(x, byNumbers, listHasNull, e.negated);
      const k = keys(x);
      const out = new Uint8Array(n);
      const valid = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        if (x.type.id === 'null' || (x.valid !== null && x.valid[i] === 0)) continue;
        const hit = set.has(normal(k[i] as Key));
        if (hit || !listHasNull) {
          valid[i] = 1;
          out[i] = hit !== e.negated ? 1 : 0;
        }
      }
      return makeColumn({ id: 'bool' }, out, valid, n);
    },
  };
}

/** Lists up to this long are compared value by value; longer ones go through the Set. */
const LINEAR_LIST = 16;

/**
 * Per row, 1 where a number column (int32, date, or a Float64Array of exact values) equals a list value; `null`
 * when the column or list is not plain numbers or the list is long. `p_size IN (49, 14, 23, …)` was a Set lookup of
 * a boxed number per row.
 */
function matchNumbers(x: Column, set: ReadonlySet<Key>): Uint8Array | null {
  const v = x.values;
  if (!(v instanceof Int32Array || v instanceof Float64Array) || set.size > LINEAR_LIST) return null;
  const list: number[] = [];
  for (const k of set) {
    if (typeof k !== 'number' || Number.isNaN(k)) return null;
    list.push(k);
  }
  const items = Float64Array.from(list);
  const out = new Uint8Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const value = v[i]!;
    let hit = 0;
    for (let j = 0; j < items.length; j++) hit |= value === items[j] ? 1 : 0;
    out[i] = hit;
  }
  return out;
}

/** IN's NULL rules over per-row hits: a miss is NULL when the list holds a NULL. */
function inListResult(x: Column, hits: Uint8Array, listHasNull: boolean, negated: boolean): Column {
  const n = x.length;
  if (x.valid === null && !listHasNull) {
    if (negated) for (let i = 0; i < n; i++) hits[i] = hits[i]! ^ 1;
    return makeColumn({ id: 'bool' }, hits, null, n);
  }
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (x.valid !== null && x.valid[i] === 0) continue;
    if (hits[i] === 1 || !listHasNull) {
      valid[i] = 1;
      hits[i] = (hits[i] === 1) !== negated ? 1 : 0;
    }
  }
  return makeColumn({ id: 'bool' }, hits, valid, n);
}

function normal(k: Key): Key {
  return typeof k === 'bigint' && k <= 9007199254740991n && k >= -9007199254740991n ? Number(k) : k;
}

/** x = a OR x = b OR …, then NOT for NOT IN: the same NULL rules through three-valued logic. */
function generic(x: Column, items: Column[], negated: boolean): Column {
  let acc = compare('=', x, items[0]!);
  for (const item of items.slice(1)) acc = or(acc, compare('=', x, item));
  if (!negated) return acc;
  const v = acc.values as Uint8Array;
  return makeColumn(
    acc.type,
    v.map((b) => 1 - b),
    acc.valid,
    acc.length,
  );
}
