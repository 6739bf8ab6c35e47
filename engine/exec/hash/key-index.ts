// `KeyIndex`: what joins, GROUP BY and set operations ask of a hash table; `makeKeyIndex` picks the implementation.

import type { Column } from '../../arrow/column.js';
import { NotSupportedError } from '../../errors.js';
import type { DataType } from '../../plan/types.js';
import { KeyTable } from './key-table.js';
import { NumberKeyTable } from './number-key-table.js';
import { PairKeyTable } from './pair-key-table.js';
import { WideIntKeyTable } from './wide-int-key-table.js';

/** Dense ids (0, 1, … in first-insertion order) for distinct key tuples. */
export interface KeyIndex {
  /** Distinct keys inserted so far. */
  readonly size: number;
  /**
   * Ids of rows [0, n) of the key columns, adding unseen keys; -1 for a row with a NULL part unless NULLs are keys.
   * Written into `out` when given (n entries: a caller's reused buffer), else into a new array.
   */
  insert(cols: readonly Column[], n: number, out?: Int32Array): Int32Array;
  /** Ids of rows [0, n), -1 where the key is absent (or has a NULL part unless NULLs are keys); adds nothing. */
  find(cols: readonly Column[], n: number, out?: Int32Array): Int32Array;
  /** Makes room for `keys` more distinct keys without growing (a join's build knows its batch sizes). */
  reserve(keys: number): void;
  /**
   * Tells the index how many rows it will be given in all (a join's build, known before its first batch), so that
   * the first batches' keys are judged against the whole build's (`NumberKeyTable`'s direct array).
   */
  expectRows?(rows: number): void;
  /** Key column `c` of every entry, in id order, as a column of `type`. */
  column(c: number, type: DataType): Column;
}

/**
 * One numeric key (integers, dates, decimals, floats, bools) gets `NumberKeyTable`, which keeps the key itself
 * in its slots (int64 and decimal through `WideIntKeyTable`, which moves to int32 halves at the first bigint); two int32/date columns of a join get `PairKeyTable` (packed into one number); anything else
 * (text, several columns) gets `KeyTable`. `nullsEqual`: NULL is one key (GROUP BY,
 * set operations), else NULL keys never match (joins).
 */
export function makeKeyIndex(types: readonly DataType[], nullsEqual: boolean): KeyIndex {
  // Interval columns hold text, but '1 mon' equals '30 days': text keys would split such groups.
  if (types.some((t) => t.id === 'interval'))
    throw new NotSupportedError(
      'grouping, DISTINCT, set operations and joins on interval values are not supported yet',
    );
  const one = types.length === 1 ? types[0]! : null;
  if (one !== null && (one.id === 'int64' || one.id === 'decimal')) return new WideIntKeyTable(one, nullsEqual);
  if (one !== null && one.id !== 'utf8') return new NumberKeyTable(nullsEqual);
  if (!nullsEqual && types.length === 2 && types.every((t) => t.id === 'int32' || t.id === 'date'))
    return new PairKeyTable(types);
  return new KeyTable(types, nullsEqual);
}
