// `TextCodes`: dense codes for the distinct values of one text key column (NULL included), in first-seen order.
import { type Column, makeColumn, strings, type Utf8Bytes, utf8BytesOf } from '../../arrow/column.js';
import { gatherDictionary, textCodesOf } from '../../arrow/gathered-column.js';
import { take } from '../../arrow/kernels/take.js';
import { dictionaryColumn, type TextDictionary } from '../../arrow/text-dictionary.js';
import { UTF8 } from '../../plan/types.js';
import { type KeyIndex, makeKeyIndex } from '../hash/key-index.js';
import { GrowingInts } from './growing-ints.js';

/**
 * Values of at most two UTF-8 bytes index a direct-mapped array: '' is slot 0, one byte b is 1 + b, two bytes
 * b0 b1 are 257 + (b0 << 8 | b1), NULL is the last slot. Longer values go to a hash table.
 */
const ONE_BYTE_SLOTS = 1;
const TWO_BYTE_SLOTS = 257;
const NULL_SLOT = 257 + 65536;
const DIRECT_SLOTS = NULL_SLOT + 1;

const encoder = new TextEncoder();

/** Codes a dictionary attached to an output column may hold (one byte each). */
const MAX_ATTACHED = 256;

/**
 * Built for short flags and codes (TPC-H's l_returnflag): a value of at most two bytes costs one array read,
 * without hashing. A value and its code never change; a value longer than two bytes goes through a `KeyIndex`.
 */
export class TextCodes {
  readonly #direct = new Int32Array(DIRECT_SLOTS).fill(-1);
  /** Per code: its direct slot, or -1 - id in `#long`. */
  readonly #sources = new GrowingInts();
  readonly #long: KeyIndex = makeKeyIndex([UTF8], true);
  /** Per id in `#long`: its code (-1 until assigned). */
  readonly #longCodes = new GrowingInts();

  get size(): number {
    return this.#sources.size;
  }

  /** Whether some value so far was longer than two bytes. */
  get hasLong(): boolean {
    return this.#long.size > 0;
  }

  /**
   * The code of each of rows [0, n) of `col` (rows `sel[0..n)` when `sel` is given), adding codes for unseen values
   * in row order.
   */
  assign(col: Column, n: number, sel: Int32Array | null = null): Int32Array {
    const out = new Int32Array(n);
    if (this.#assignByDictionary(col, n, sel, out)) return out;
    if (this.#assignShortBytes(col, n, sel, out)) return out;
    // Rare: NULLs, JS strings or longer values. The selected rows are copied, then coded one by one.
    if (sel !== null) col = take(col, sel, n);
    const slots = directSlots(col, n);
    let longIds: Int32Array | null = null;
    for (let i = 0; i < n; i++) {
      const s = slots[i]!;
      if (s >= 0) out[i] = this.#directCode(s);
      else {
        // The first long value: hash every long value of the batch at once, then carry on in row order.
        longIds ??= this.#longIds(col, slots, n);
        out[i] = this.#longCode(longIds[-1 - s]!);
      }
    }
    return out;
  }

  /** The last table dictionary seen, and the code of each of its values here (-1: not yet asked). */
  #dictionary: TextDictionary | null = null;
  #byValue = new Int32Array(0);

  /**
   * A column with a table dictionary and no NULL (`textCodesOf`): each row's code is its dictionary value's, looked
   * up by the row's dictionary code (a value is coded here once, the first time a row holds it). False otherwise.
   */
  #assignByDictionary(col: Column, n: number, sel: Int32Array | null, out: Int32Array): boolean {
    const coded = col.valid === null ? textCodesOf(col) : null;
    if (coded === null) return false;
    if (coded.dictionary !== this.#dictionary) {
      this.#dictionary = coded.dictionary;
      this.#byValue = new Int32Array(coded.dictionary.size).fill(-1);
    }
    const byValue = this.#byValue;
    const codes = coded.codes;
    for (let j = 0; j < n; j++) {
      const d = codes[sel === null ? j : sel[j]!]!;
      let code = byValue[d]!;
      if (code === -1) {
        code = this.assign(dictionaryColumn(coded.dictionary), 1, Int32Array.of(d))[0]!;
        byValue[d] = code;
      }
      out[j] = code;
    }
    return true;
  }

  /**
   * The common case in one pass: UTF-8 bytes, no NULLs, no value longer than two bytes; read through `sel` when
   * given, so a filter's survivors are coded without being copied first. Returns false (codes for the rows before
   * stay assigned, and are found again) at the first row that is not.
   */
  #assignShortBytes(col: Column, n: number, sel: Int32Array | null, out: Int32Array): boolean {
    const v = utf8BytesOf(col);
    if (v === null || col.valid !== null) return false;
    const { offsets, bytes } = v;
    const direct = this.#direct;
    for (let j = 0; j < n; j++) {
      const s = shortSlot(offsets, bytes, sel === null ? j : sel[j]!);
      if (s === -1) return false;
      const code = direct[s]!;
      out[j] = code === -1 ? this.#directCode(s) : code;
    }
    return true;
  }

  #directCode(s: number): number {
    let code = this.#direct[s]!;
    if (code === -1) {
      code = this.#sources.size;
      this.#sources.push(s);
      this.#direct[s] = code;
    }
    return code;
  }

  /**
   * The value of each code in `codes` (length n; not changed afterwards), as a utf8 column over UTF-8 bytes. With
   * at most 256 codes and no NULL among them, the column is the dictionary of every value gathered lazily by the
   * codes (`gatherDictionary`), its codes attached: a sort above ranks the dictionary instead of hashing every row
   * (`textRanks`) and takes the rows from the dictionary, so the text is copied once, where it is read, instead of
   * here and again in the sort (q16's brands and types for 18k groups, one thread, CPU profile over 30 runs:
   * aggregate output and sort 16-17 -> 10.5-11 ms a run); a filter or expression above reads them by code.
   */
  column(codes: Int32Array, n: number): Column {
    const size = this.#sources.size;
    if (size <= MAX_ATTACHED) {
      const every = this.#column(
        Int32Array.from({ length: size }, (_, c) => c),
        size,
      );
      if (every.valid === null) return gatherDictionary({ values: every.values as Utf8Bytes, size }, codes, n);
    }
    return this.#column(codes, n);
  }

  #column(codes: Int32Array, n: number): Column {
    const long = this.#long.size > 0 ? longBytes(this.#long.column(0, UTF8)) : null;
    const sources = this.#sources.values;
    const offsets = new Int32Array(n + 1);
    const valid = new Uint8Array(n).fill(1);
    let bytes: Uint8Array = new Uint8Array(n * 2);
    let at = 0;
    for (let g = 0; g < n; g++) {
      const s = sources[codes[g]!]!;
      if (s === NULL_SLOT) valid[g] = 0;
      else if (s >= TWO_BYTE_SLOTS) at = put(bytes, at, (s - TWO_BYTE_SLOTS) >> 8, (s - TWO_BYTE_SLOTS) & 255);
      else if (s >= ONE_BYTE_SLOTS) bytes[at++] = s - ONE_BYTE_SLOTS;
      else if (s < 0) {
        const id = -1 - s;
        const start = long!.offsets[id]!;
        const end = long!.offsets[id + 1]!;
        // Keep two bytes for each row still to come.
        const need = at + end - start + 2 * (n - g - 1);
        if (need > bytes.length) bytes = grow(bytes, need);
        const src = long!.bytes;
        for (let k = start; k < end; k++) bytes[at++] = src[k]!;
      }
      offsets[g + 1] = at;
    }
    return makeColumn(UTF8, { offsets, bytes: bytes.slice(0, at) }, valid.includes(0) ? valid : null, n);
  }

  /** Ids in `#long` of the long rows (slot -1 - k = the k-th long row). */
  #longIds(col: Column, slots: Int32Array, n: number): Int32Array {
    const rows = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) if (slots[i]! < 0) rows[k++] = i;
    return this.#long.insert([k === n ? col : take(col, rows, k)], k);
  }

  #longCode(id: number): number {
    const codes = this.#longCodes;
    while (codes.size <= id) codes.push(-1);
    let code = codes.values[id]!;
    if (code === -1) {
      code = this.#sources.size;
      this.#sources.push(-1 - id);
      codes.values[id] = code;
    }
    return code;
  }
}

/** The direct slot of row i's bytes (never NULL), or -1 when they are more than two. */
function shortSlot(offsets: Int32Array, bytes: Uint8Array, i: number): number {
  const start = offsets[i]!;
  const len = offsets[i + 1]! - start;
  if (len === 1) return ONE_BYTE_SLOTS + bytes[start]!;
  if (len === 2) return TWO_BYTE_SLOTS + ((bytes[start]! << 8) | bytes[start + 1]!);
  return len === 0 ? 0 : -1;
}

/** Per row: its direct slot, or -1 - k for the k-th row whose value is longer than two bytes. */
function directSlots(col: Column, n: number): Int32Array {
  const out = new Int32Array(n);
  const valid = col.valid;
  const bytes = utf8BytesOf(col);
  let long = 0;
  if (bytes !== null) {
    const { offsets, bytes: b } = bytes;
    for (let i = 0; i < n; i++) {
      const start = offsets[i]!;
      const len = offsets[i + 1]! - start;
      let s: number;
      if (valid !== null && valid[i] === 0) s = NULL_SLOT;
      else if (len === 0) s = 0;
      else if (len === 1) s = ONE_BYTE_SLOTS + b[start]!;
      else if (len === 2) s = TWO_BYTE_SLOTS + ((b[start]! << 8) | b[start + 1]!);
      else s = -1 - long++;
      out[i] = s;
    }
    return out;
  }
  const values = strings(col);
  for (let i = 0; i < n; i++) {
    const s = valid !== null && valid[i] === 0 ? NULL_SLOT : stringSlot(values[i]!);
    out[i] = s === -1 ? -1 - long++ : s;
  }
  return out;
}

/** The direct slot of a JS string's UTF-8 bytes, or -1 when they are more than two. */
function stringSlot(s: string): number {
  if (s.length === 0) return 0;
  const c = s.charCodeAt(0);
  if (s.length === 1) {
    if (c < 0x80) return ONE_BYTE_SLOTS + c;
    if (c < 0x800) return TWO_BYTE_SLOTS + (((0xc0 | (c >> 6)) << 8) | (0x80 | (c & 63)));
    return -1;
  }
  const d = s.charCodeAt(1);
  return s.length === 2 && c < 0x80 && d < 0x80 ? TWO_BYTE_SLOTS + ((c << 8) | d) : -1;
}

function put(bytes: Uint8Array, at: number, b0: number, b1: number): number {
  bytes[at] = b0;
  bytes[at + 1] = b1;
  return at + 2;
}

function grow(bytes: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(Math.max(size, bytes.length * 2));
  out.set(bytes);
  return out;
}

/** The long values' bytes (the hash table keeps text as bytes; JS strings are encoded if it ever does not). */
function longBytes(col: Column): { offsets: Int32Array; bytes: Uint8Array } {
  const bytes = utf8BytesOf(col);
  if (bytes !== null) return bytes;
  const parts = strings(col).map((s) => encoder.encode(s));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => {
    offsets[i + 1] = offsets[i]! + p.length;
  });
  const out = new Uint8Array(offsets[parts.length]!);
  parts.forEach((p, i) => {
    out.set(p, offsets[i]!);
  });
  return { offsets, bytes: out };
}
