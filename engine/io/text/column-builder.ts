// `makeColumnBuilder`: collects one column's values from text, parsed as its type, into a `Column`.
import { type Column, makeColumn } from '../../arrow/column.js';
import { parseText } from '../../arrow/kernels/cast.js';
import type { DataType } from '../../plan/types.js';
import { parseDate, parseTimestamp } from '../../plan/values.js';

export interface ColumnBuilder {
  /** Adds one row (null: NULL). False when `text` is no value of the column's type; nothing is added then. */
  add(text: string | null): boolean;
  /** The rows added so far as a column; the builder is not used after. */
  finish(): Column;
}

/** A builder for at most `capacity` rows of `type` (int64, float64, decimal, bool, date, timestamp or utf8). */
export function makeColumnBuilder(type: DataType, capacity: number): ColumnBuilder {
  if (type.id === 'utf8') return new TextBuilder(type, capacity);
  if (type.id === 'bool') return new TypedBuilder(type, new Uint8Array(capacity), parseBool);
  if (type.id === 'date') return new TypedBuilder(type, new Int32Array(capacity), parseDate);
  if (type.id === 'timestamp') return new TypedBuilder(type, new Float64Array(capacity), parseTimestamp);
  if (type.id === 'float64') return new TypedBuilder(type, new Float64Array(capacity), parseDouble);
  return new ExactBuilder(type, capacity);
}

const SHORT_INT_RE = /^[+-]?\d{1,15}$/;
const PLAIN_FLOAT_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?$/;

function parseDouble(text: string): number | null {
  if (PLAIN_FLOAT_RE.test(text)) {
    const v = Number(text);
    if (Number.isFinite(v)) return v;
  }
  return parsed(text, { id: 'float64' }) as number | null;
}

function parseBool(text: string): number | null {
  const v = parsed(text, { id: 'bool' });
  return v === null ? null : v ? 1 : 0;
}

/** PostgreSQL's text input of `type` (spaces around, `NaN`, `t`/`f`...), or null when the text is no such value. */
function parsed(text: string, type: DataType): number | bigint | boolean | null {
  try {
    return parseText(text, type);
  } catch {
    return null;
  }
}

class Validity {
  valid: Uint8Array;
  hasNull = false;
  constructor(capacity: number) {
    this.valid = new Uint8Array(capacity);
  }
  /** null when no row is NULL (the column's convention). */
  take(n: number): Uint8Array | null {
    return this.hasNull ? this.valid.subarray(0, n) : null;
  }
}

class TextBuilder implements ColumnBuilder {
  readonly #values: string[] = [];
  readonly #validity: Validity;
  constructor(
    readonly type: DataType,
    capacity: number,
  ) {
    this.#validity = new Validity(capacity);
  }
  add(text: string | null): boolean {
    const at = this.#values.length;
    this.#values.push(text ?? '');
    if (text === null) this.#validity.hasNull = true;
    else this.#validity.valid[at] = 1;
    return true;
  }
  finish(): Column {
    const n = this.#values.length;
    return makeColumn(this.type, this.#values, this.#validity.take(n), n);
  }
}

type Parse = (text: string) => number | null;

class TypedBuilder implements ColumnBuilder {
  #length = 0;
  readonly #validity: Validity;
  constructor(
    readonly type: DataType,
    readonly values: Uint8Array | Int32Array | Float64Array,
    readonly parse: Parse,
  ) {
    this.#validity = new Validity(values.length);
  }
  add(text: string | null): boolean {
    if (text === null) {
      this.#validity.hasNull = true;
      this.#length++;
      return true;
    }
    const v = this.parse(text);
    if (v === null) return false;
    this.values[this.#length] = v;
    this.#validity.valid[this.#length++] = 1;
    return true;
  }
  finish(): Column {
    const n = this.#length;
    return makeColumn(this.type, this.values.subarray(0, n), this.#validity.take(n), n);
  }
}

/** int64 and decimal (scaled) values: a Float64Array while every value is within ±2^53, a BigInt64Array past that. */
class ExactBuilder implements ColumnBuilder {
  #length = 0;
  #values: Float64Array | BigInt64Array;
  readonly #validity: Validity;
  constructor(
    readonly type: DataType,
    capacity: number,
  ) {
    this.#values = new Float64Array(capacity);
    this.#validity = new Validity(capacity);
  }
  add(text: string | null): boolean {
    if (text === null) {
      this.#validity.hasNull = true;
      this.#length++;
      return true;
    }
    const v = this.type.id === 'int64' && SHORT_INT_RE.test(text) ? Number(text) : parsed(text, this.type);
    if (v === null || typeof v === 'boolean') return false;
    if (typeof v === 'bigint' && this.#values instanceof Float64Array)
      this.#values = BigInt64Array.from(this.#values, BigInt);
    if (this.#values instanceof BigInt64Array) this.#values[this.#length] = BigInt(v);
    else this.#values[this.#length] = v as number;
    this.#validity.valid[this.#length++] = 1;
    return true;
  }
  finish(): Column {
    const n = this.#length;
    return makeColumn(this.type, this.#values.subarray(0, n), this.#validity.take(n), n);
  }
}
