// `TextStore`: one text key column's entries as UTF-8 bytes with offsets, compared as bytes (never decoded).
import { type Column, constantColumn, makeColumn } from '../../arrow/column.js';
import { copyBytes } from '../../arrow/kernels/utf8-take.js';
import type { DataType } from '../../plan/types.js';
import type { TextKeys } from './key-column.js';
import { grown, INITIAL_ENTRIES, validity } from './store-arrays.js';

const encoder = new TextEncoder();

/** One text key column's entries as UTF-8 bytes with offsets. */
export class TextStore {
  offsets = new Int32Array(INITIAL_ENTRIES + 1);
  bytes = new Uint8Array(INITIAL_ENTRIES * 16);
  valid = new Uint8Array(INITIAL_ENTRIES);
  size = 0;

  append(k: TextKeys, i: number): void {
    const id = this.size++;
    this.offsets = grown(this.offsets, id + 2);
    this.valid = grown(this.valid, id + 1);
    const at = this.offsets[id]!;
    let end = at;
    if (k.valid === null || k.valid[i] === 1) {
      end = k.strings === null ? this.#copy(k, i, at) : this.#encode(k.strings[i]!, at);
      this.valid[id] = 1;
    }
    this.offsets[id + 1] = end;
  }

  #copy(k: TextKeys, i: number, at: number): number {
    const start = k.offsets[i]!;
    const end = k.offsets[i + 1]!;
    const bytes = grown(this.bytes, at + end - start);
    this.bytes = bytes;
    copyBytes(bytes, at, k.bytes, start, end);
    return at + end - start;
  }

  #encode(s: string, at: number): number {
    // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
    this.bytes = grown(this.bytes, at + s.length * 3);
    const bytes = this.bytes;
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0x80) return at + encoder.encodeInto(s, bytes.subarray(at)).written;
      bytes[at + j] = c;
    }
    return at + s.length;
  }

  /** Clears `eq[j]` where entry `ids[j]` differs from row `rows[j]` of `k` (j < count, only where eq[j] is 1). */
  narrow(k: TextKeys, rows: Int32Array, ids: Int32Array, count: number, eq: Uint8Array): void {
    if (k.strings !== null) {
      for (let j = 0; j < count; j++) if (eq[j] === 1 && !this.equals(ids[j]!, k, rows[j]!)) eq[j] = 0;
      return;
    }
    const { offsets, bytes, valid } = k;
    const storedOffsets = this.offsets;
    const stored = this.bytes;
    const storedValid = this.valid;
    for (let j = 0; j < count; j++) {
      if (eq[j] === 0) continue;
      const i = rows[j]!;
      const id = ids[j]!;
      const v = valid === null ? 1 : valid[i]!;
      if (v !== storedValid[id]) {
        eq[j] = 0;
        continue;
      }
      if (v === 0) continue;
      const at = storedOffsets[id]!;
      const len = storedOffsets[id + 1]! - at;
      const start = offsets[i]!;
      if (offsets[i + 1]! - start !== len || !sameBytes(bytes, start, stored, at, len)) eq[j] = 0;
    }
  }

  equals(id: number, k: TextKeys, i: number): boolean {
    const valid = k.valid === null || k.valid[i] === 1;
    if (valid !== (this.valid[id] === 1)) return false;
    if (!valid) return true;
    const at = this.offsets[id]!;
    const len = this.offsets[id + 1]! - at;
    if (k.strings !== null) return this.#equalsString(k.strings[i]!, at, len);
    const start = k.offsets[i]!;
    if (k.offsets[i + 1]! - start !== len) return false;
    return sameBytes(k.bytes, start, this.bytes, at, len);
  }

  /** Whether `s` encodes to the `len` bytes at `at`; ASCII compares char by byte, the rest is encoded. */
  #equalsString(s: string, at: number, len: number): boolean {
    // UTF-8 never takes fewer bytes than UTF-16 code units.
    if (len < s.length) return false;
    const bytes = this.bytes;
    for (let j = 0; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c >= 0x80) {
        const tail = encoder.encode(s.slice(j));
        return tail.length === len - j && sameBytes(tail, 0, bytes, at + j, tail.length);
      }
      if (bytes[at + j] !== c) return false;
    }
    return len === s.length;
  }

  /** The entries as a utf8 column over UTF-8 bytes (decoded only if a consumer asks for strings). */
  column(type: DataType): Column {
    const n = this.size;
    const valid = validity(this.valid, n);
    if (valid !== null && !valid.includes(1)) return constantColumn(type, null, n);
    // Views, not copies (985k URLs: 40 MB): entries are only ever appended, so the bytes and offsets they show never
    // change, and a growing store moves to new arrays.
    const offsets = this.offsets.subarray(0, n + 1);
    return makeColumn(type, { offsets, bytes: this.bytes.subarray(0, offsets[n]!) }, valid, n);
  }
}

function sameBytes(a: Uint8Array, i: number, b: Uint8Array, j: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (a[i + k] !== b[j + k]) return false;
  return true;
}
