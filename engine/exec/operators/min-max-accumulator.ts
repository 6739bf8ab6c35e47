// MIN and MAX: numbers in typed arrays while every batch is Float64Array / Int32Array, plain values otherwise.
import { type Column, decodeRange, makeColumn } from '../../arrow/column.js';
import { take } from '../../arrow/kernels/take.js';
import { compareText } from '../../arrow/kernels/text-order.js';
import type { DataType } from '../../plan/types.js';
import { type Accumulator, columnFromValues, type Key, valueReader } from './accumulators.js';
import { GroupNumbers } from './group-numbers.js';
import { byteRowsOf, TextMinMax } from './text-min-max.js';

/** Output kinds whose MIN/MAX state fits a Float64Array (values as numbers; int32/date re-narrowed at the end). */
const NUMERIC_MINMAX = new Set(['int32', 'int64', 'float64', 'date', 'timestamp', 'decimal']);

export class MinMaxAcc implements Accumulator {
  /** Numeric state while every batch is Float64Array / Int32Array; null once a batch needed the general path. */
  #num: { best: GroupNumbers; seen: GroupNumbers } | null;
  #best: (Key | null)[] = [];
  /** Text state while every batch holds UTF-8 bytes; null once a batch held JS strings. */
  #text: TextMinMax | null;
  constructor(
    readonly fn: 'min' | 'max',
    readonly type: DataType,
  ) {
    this.#num = NUMERIC_MINMAX.has(type.id) ? { best: new GroupNumbers(), seen: new GroupNumbers() } : null;
    this.#text = type.id === 'utf8' ? new TextMinMax(fn === 'min' ? -1 : 1, type) : null;
  }
  /** Text bytes are read at the selected rows where they lie; other arguments are taken by `sel` first. */
  updateSelected(groups: Int32Array, n: number, arg: Column | null, ngroups: number, sel: Int32Array): void {
    const bytes = this.#text === null ? null : byteRowsOf(arg!);
    if (bytes !== null) this.#text!.update(groups, n, bytes, ngroups, sel);
    else this.update(groups, n, take(arg!, sel, n), ngroups);
  }
  update(groups: Int32Array, n: number, arg: Column | null, ngroups: number): void {
    const col = arg!;
    if (this.#text !== null) {
      const bytes = byteRowsOf(col);
      if (bytes !== null) {
        this.#text.update(groups, n, bytes, ngroups, null);
        return;
      }
      this.#best = this.#text.strings(ngroups, decodeRange);
      this.#text = null;
    }
    const v = col.values;
    if (this.#num !== null && (v instanceof Float64Array || v instanceof Int32Array)) {
      const best = this.#num.best.ensure(ngroups);
      const seen = this.#num.seen.ensure(ngroups);
      if (this.fn === 'min') minNumbers(v, col.valid, groups, n, best, seen);
      else maxNumbers(v, col.valid, groups, n, best, seen);
      return;
    }
    if (this.#num !== null) this.#toGeneral();
    this.#updateGeneral(groups, n, col, ngroups);
  }
  #toGeneral(): void {
    const { best, seen } = this.#num!;
    this.#best = Array.from(best.values, (b, g) => (seen.values[g] === 1 ? b : null));
    this.#num = null;
  }
  #updateGeneral(groups: Int32Array, n: number, arg: Column, ngroups: number): void {
    while (this.#best.length < ngroups) this.#best.push(null);
    const read = valueReader(arg);
    const best = this.#best;
    const isMin = this.fn === 'min';
    for (let i = 0; i < n; i++) {
      const x = read(i);
      if (x === null || (typeof x === 'number' && Number.isNaN(x) && isMin)) continue;
      const g = groups[i]!;
      const b = best[g]!;
      if (b === null) best[g] = x;
      else if (typeof x === 'string') {
        // Text orders by code point (UTF-8 byte order), as PostgreSQL's C collation.
        if (isMin ? compareText(x, b as string) < 0 : compareText(x, b as string) > 0) best[g] = x;
      } else if (isMin ? x < b : x > b || (typeof x === 'number' && Number.isNaN(x))) best[g] = x;
    }
  }
  finish(ngroups: number): Column {
    if (this.#text !== null) return this.#text.finish(ngroups);
    if (this.#num !== null) {
      const best = this.#num.best.ensure(ngroups);
      const seen = this.#num.seen.ensure(ngroups).subarray(0, ngroups);
      const valid = seen.every((x) => x === 1) ? null : Uint8Array.from(seen);
      const id = this.type.id;
      const values =
        id === 'int32' || id === 'date' ? Int32Array.from(best.subarray(0, ngroups)) : best.slice(0, ngroups);
      return makeColumn(this.type, values, valid, ngroups);
    }
    while (this.#best.length < ngroups) this.#best.push(null);
    return columnFromValues(this.type, this.#best);
  }
}

// MIN skips NaN and MAX lets it win (NaN sorts above every number), as the general path does.
function minNumbers(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  groups: Int32Array,
  n: number,
  best: Float64Array,
  seen: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const x = v[i]!;
    if (Number.isNaN(x)) continue;
    const g = groups[i]!;
    if (seen[g] === 0 || x < best[g]!) {
      best[g] = x;
      seen[g] = 1;
    }
  }
}

function maxNumbers(
  v: Float64Array | Int32Array,
  valid: Uint8Array | null,
  groups: Int32Array,
  n: number,
  best: Float64Array,
  seen: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const x = v[i]!;
    const g = groups[i]!;
    const b = best[g]!;
    if (seen[g] === 0 || x > b || (Number.isNaN(x) && !Number.isNaN(b))) {
      best[g] = x;
      seen[g] = 1;
    }
  }
}
