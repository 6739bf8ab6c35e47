// Thrift's compact protocol, only as far as walking a Parquet footer and writing it back with fields left out.
// (hyparquet decodes footers into values but keeps no byte positions and writes nothing back.)

/** Type codes of the compact protocol (field headers and collection element types). */
export const CompactType = {
  boolTrue: 1,
  boolFalse: 2,
  byte: 3,
  i16: 4,
  i32: 5,
  i64: 6,
  double: 7,
  binary: 8,
  list: 9,
  set: 10,
  map: 11,
  struct: 12,
} as const;

/** One field of a struct: its id and type, and where its header, value and end are in the buffer. */
export interface FieldSpan {
  readonly id: number;
  readonly type: number;
  readonly headerAt: number;
  readonly valueAt: number;
  readonly end: number;
}

/** Nesting deeper than this is not a Parquet footer (which nests a handful of levels). */
const MAX_DEPTH = 64;

/**
 * Reads compact-protocol values from `bytes`, starting at `pos`. Every read checks its bounds: a truncated or
 * malformed buffer throws a RangeError rather than reading past the end.
 */
export class CompactReader {
  readonly bytes: Uint8Array;
  pos: number;

  constructor(bytes: Uint8Array, pos = 0) {
    this.bytes = bytes;
    this.pos = pos;
  }

  /** The fields of the struct at `pos`, up to and past its stop byte; their values are skipped, not decoded. */
  struct(depth = 0): FieldSpan[] {
    if (depth > MAX_DEPTH) throw new RangeError('thrift struct nested too deeply');
    const fields: FieldSpan[] = [];
    let lastId = 0;
    for (;;) {
      const headerAt = this.pos;
      const header = this.#byte();
      if (header === 0) return fields;
      const type = header & 0x0f;
      const delta = header >> 4;
      const id = delta === 0 ? unzigzag(this.varint()) : lastId + delta;
      lastId = id;
      const valueAt = this.pos;
      this.skip(type, depth);
      fields.push({ id, type, headerAt, valueAt, end: this.pos });
    }
  }

  /** A list's (or set's) header: its size and element type. */
  listHeader(): { size: number; elementType: number } {
    const header = this.#byte();
    const size = header >> 4 === 15 ? this.varint() : header >> 4;
    return { size, elementType: header & 0x0f };
  }

  /** An i16/i32 value (zigzag varint). */
  int(): number {
    return unzigzag(this.varint());
  }

  varint(): number {
    let out = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      const b = this.#byte();
      out += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return out;
    }
    throw new RangeError('thrift varint too long');
  }

  /** Skips one value of `type` (a struct field's value: booleans live in the field header). */
  skip(type: number, depth = 0): void {
    switch (type) {
      case CompactType.boolTrue:
      case CompactType.boolFalse:
        return;
      case CompactType.byte:
        this.#advance(1);
        return;
      case CompactType.i16:
      case CompactType.i32:
      case CompactType.i64:
        this.varint();
        return;
      case CompactType.double:
        this.#advance(8);
        return;
      case CompactType.binary:
        this.#advance(this.varint());
        return;
      case CompactType.list:
      case CompactType.set: {
        const { size, elementType } = this.listHeader();
        for (let i = 0; i < size; i++) this.#element(elementType, depth + 1);
        return;
      }
      case CompactType.map: {
        const size = this.varint();
        if (size === 0) return;
        const types = this.#byte();
        for (let i = 0; i < size; i++) {
          this.#element(types >> 4, depth + 1);
          this.#element(types & 0x0f, depth + 1);
        }
        return;
      }
      case CompactType.struct:
        this.struct(depth + 1);
        return;
      default:
        throw new RangeError(`unknown thrift compact type ${type}`);
    }
  }

  /** A collection element: booleans take a byte each there. */
  #element(type: number, depth: number): void {
    if (type === CompactType.boolTrue || type === CompactType.boolFalse) this.#advance(1);
    else this.skip(type, depth);
  }

  #byte(): number {
    if (this.pos >= this.bytes.length) throw new RangeError('thrift data ends early');
    return this.bytes[this.pos++] as number;
  }

  #advance(n: number): void {
    if (this.pos + n > this.bytes.length) throw new RangeError('thrift data ends early');
    this.pos += n;
  }
}

/** The header of field `id` of `type` written after field `lastId` of the same struct. */
export function fieldHeader(id: number, lastId: number, type: number): Uint8Array {
  const delta = id - lastId;
  if (delta > 0 && delta <= 15) return Uint8Array.of((delta << 4) | type);
  return Uint8Array.of(type, ...varint(zigzag(id)));
}

/** The i32 value of `field` (an i16/i32 field) in `bytes`. */
export function intValue(bytes: Uint8Array, field: FieldSpan): number {
  return new CompactReader(bytes, field.valueAt).int();
}

function zigzag(n: number): number {
  return ((n << 1) ^ (n >> 31)) >>> 0;
}

function unzigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/** `n` (a non-negative integer) as an unsigned varint. */
export function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return out;
}
