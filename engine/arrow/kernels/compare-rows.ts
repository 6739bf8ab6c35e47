// Row comparators for sorting: one per key column, with ASC/DESC and NULLS FIRST/LAST.

import { intervalSpan, parseIntervalText } from '../../plan/interval-text.js';
import { type Column, decodedStrings, strings, utf8BytesOf } from '../column.js';
import { compareText } from './text-order.js';
import { compareUtf8Range } from './utf8-compare.js';

export interface SortSpec {
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

export type RowComparator = (i: number, j: number) => number;

/** Compares rows i and j of `col`. Strings compare by code point (UTF-8 byte order); NaN sorts above every number. */
export function rowComparator(col: Column, spec: SortSpec): RowComparator {
  const dir = spec.ascending ? 1 : -1;
  const nullOrder = spec.nullsFirst ? -1 : 1;
  const valid = col.type.id === 'null' ? new Uint8Array(col.length) : col.valid;
  const base = valuesComparator(col);
  if (valid === null) return (i, j) => dir * base(i, j);
  return (i, j) => {
    const a = valid[i] === 1;
    const b = valid[j] === 1;
    if (a && b) return dir * base(i, j);
    if (a === b) return 0;
    return a ? -nullOrder : nullOrder;
  };
}

function valuesComparator(col: Column): RowComparator {
  if (col.type.id === 'utf8') {
    // Text still held as bytes is compared as bytes: nothing is decoded, and the sort's `take` copies bytes.
    const held = decodedStrings(col) === null ? utf8BytesOf(col) : null;
    if (held !== null) {
      const { offsets: o, bytes: b } = held;
      return (i, j) => compareUtf8Range(b, o[i]!, o[i + 1]!, b, o[j]!, o[j + 1]!);
    }
    const s = strings(col);
    return (i, j) => compareText(s[i] as string, s[j] as string);
  }
  if (col.type.id === 'interval' && col.values !== null) {
    // Interval columns hold text: compare PostgreSQL's spans (a month as 30 days).
    const text = strings(col);
    const span = text.map((t) => (t === '' ? 0 : intervalSpan(parseIntervalText(t))));
    return (i, j) => span[i]! - span[j]!;
  }
  const v = col.values;
  if (v === null) return () => 0;
  if (v instanceof BigInt64Array)
    return (i, j) => ((v[i] as bigint) < (v[j] as bigint) ? -1 : (v[i] as bigint) > (v[j] as bigint) ? 1 : 0);
  const n = v as Int32Array | Float64Array | Uint8Array;
  if (col.type.id === 'float64') {
    return (i, j) => {
      const a = n[i] as number;
      const b = n[j] as number;
      if (a < b) return -1;
      if (a > b) return 1;
      if (a === b) return 0;
      return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
    };
  }
  return (i, j) => (n[i] as number) - (n[j] as number);
}

/** A comparator over several keys, the first deciding first. */
export function chainComparators(cmps: readonly RowComparator[]): RowComparator {
  if (cmps.length === 1) return cmps[0]!;
  return (i, j) => {
    for (const c of cmps) {
      const r = c(i, j);
      if (r !== 0) return r;
    }
    return 0;
  };
}
