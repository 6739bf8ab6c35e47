// Dynamic join filters: a hash join's build side is complete before its probe side starts, so the build keys can
// filter the probe side low in its plan (above the scan, below aggregations and other joins). `KeySet` (key-set.ts)
// holds the keys; `CollectKeysExec` fills it as the build rows pass; `DynamicFilterExec` drops probe rows whose key
// is absent.
import { type Batch, makeBatch } from '../../arrow/batch.js';
import { gatherColumns } from '../../arrow/gathered-column.js';
import { attachedCodes, dictionaryColumn, type TextDictionary } from '../../arrow/text-dictionary.js';
import type { Schema } from '../../plan/types.js';
import type { ExecContext } from '../context.js';
import { selectUtf8Literals } from '../expr/utf8-match.js';
import type { PhysicalOperator } from '../operator.js';
import type { RowRange } from './key-runs.js';
import type { KeySet } from './key-set.js';

/** Passes the build side through unchanged, adding its key column to `keys`; finishes the set at the end. */
export class CollectKeysExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #column: number;
  readonly #keys: KeySet;

  constructor(input: PhysicalOperator, column: number, keys: KeySet) {
    this.#input = input;
    this.#column = column;
    this.#keys = keys;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    this.#keys.reset();
    let collecting = true;
    for await (const batch of this.#input.execute(ctx)) {
      if (collecting) collecting = this.#keys.add(batch.columns[this.#column]!);
      yield batch;
    }
    this.#keys.finish();
  }
}

/**
 * A scan's own bounds on one integer column (`RowRange`'s lo and hi, inclusive) that a dynamic filter may test on
 * the rows its sorted path finds: the scan's filter above tests every row again.
 */
export interface ScanRange {
  readonly column: number;
  readonly lo: number;
  readonly hi: number;
  /** Instead of bounds: the text the column must equal, tested by its code when the column is coded. */
  readonly text?: string;
}

/**
 * The batch's values of the range's column, when they are numbers held as Float64Array or Int32Array; for a text
 * range, the column's codes and the text's code (no row passes when the dictionary lacks it), when it is coded.
 */
function rowRange(batch: Batch, range: ScanRange | null): RowRange | null {
  if (range === null) return null;
  const col = batch.columns[range.column]!;
  if (range.text !== undefined) {
    const coded = attachedCodes(col);
    if (coded === null) return null;
    const code = codeOf(coded.dictionary, range.text);
    if (code === NO_CODE) return null;
    return code < 0 ? { x: coded.codes, lo: 1, hi: 0 } : { x: coded.codes, lo: code, hi: code };
  }
  const x = col.values;
  return x instanceof Float64Array || x instanceof Int32Array ? { x, lo: range.lo, hi: range.hi } : null;
}

/** Each dictionary's codes of the texts asked for so far (-1: not in it; NO_CODE: not comparable as bytes). */
const CODES = new WeakMap<TextDictionary, Map<string, number>>();
const NO_CODE = -2;

/** The code of `text` in `dictionary`, -1 when it holds no such value, or NO_CODE. */
function codeOf(dictionary: TextDictionary, text: string): number {
  let codes = CODES.get(dictionary);
  if (codes === undefined) {
    codes = new Map();
    CODES.set(dictionary, codes);
  }
  let code = codes.get(text);
  if (code === undefined) {
    const found = new Int32Array(dictionary.size);
    const n = selectUtf8Literals(dictionaryColumn(dictionary), [text], false, null, dictionary.size, found);
    code = n < 0 ? NO_CODE : n === 0 ? -1 : found[0]!;
    codes.set(text, code);
  }
  return code;
}

/** Keeps the rows whose column `column` holds one of the build keys. */
export class DynamicFilterExec implements PhysicalOperator {
  readonly schema: Schema;
  readonly #input: PhysicalOperator;
  readonly #column: number;
  readonly #keys: KeySet;
  readonly #range: ScanRange | null;

  constructor(input: PhysicalOperator, column: number, keys: KeySet, range: ScanRange | null = null) {
    this.#input = input;
    this.#column = column;
    this.#keys = keys;
    this.#range = range;
    this.schema = input.schema;
  }

  async *execute(ctx: ExecContext): AsyncIterable<Batch> {
    const range = this.#range;
    for await (const batch of this.#input.execute(ctx)) {
      const keep = this.#keys.select(batch.columns[this.#column]!, rowRange(batch, range));
      if (keep === null || keep.length === batch.length) yield batch;
      else if (keep.length > 0)
        yield makeBatch(batch.schema, gatherColumns(batch.columns, keep, keep.length, false), keep.length);
    }
  }
}
