// Equality of a text column with literals, on its UTF-8 bytes: an accelerated or Parquet column compared with
// `= 'x'` or `IN ('x', 'y')` is never decoded into JavaScript strings.
import type { Column, Utf8Bytes } from '../../arrow/column.js';
import { textCodesOf } from '../../arrow/gathered-column.js';
import { hasUtf8Form } from '../../arrow/kernels/utf8-compare.js';
import { selectShortTexts } from '../../arrow/kernels/wasm-select.js';
import { dictionaryColumn } from '../../arrow/text-dictionary.js';

const encoder = new TextEncoder();

/** Per row, 1 where the value equals one of `literals`; `null` when the column is not held as UTF-8 bytes. */
export function matchUtf8Literals(col: Column, literals: readonly string[]): Uint8Array | null {
  const rows = new Int32Array(col.length);
  const k = selectUtf8Literals(col, literals, false, null, col.length, rows);
  if (k < 0) return null;
  const out = new Uint8Array(col.length);
  for (let j = 0; j < k; j++) out[rows[j]!] = 1;
  return out;
}

/**
 * The rows of `sel` (or of 0..n when null) that are not NULL and equal one of `literals` (none of them when
 * `negated`), written to `out` (which may be `sel`); returns how many, or -1 when the column is not held as UTF-8
 * bytes. A filter's `x IN ('MAIL', 'SHIP')` or `x <> 'y'` narrows its selection this way without copying a value.
 * `prefix`: compare each row's first `prefix` bytes only, for `substring(x, 1, L) IN (...)` when every literal is
 * L ASCII bytes (Q22's country codes: no substring is built).
 */
export function selectUtf8Literals(
  col: Column,
  literals: readonly string[],
  negated: boolean,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
  prefix: number | null = null,
): number {
  const v = col.values;
  if (col.type.id !== 'utf8' || v === null || Array.isArray(v) || !('offsets' in v)) return -1;
  if (!literals.every(hasUtf8Form)) return -1;
  const valid = col.valid;
  const coded = textCodesOf(col);
  if (coded !== null && n >= coded.dictionary.size) {
    // A table dictionary's values are matched once; each row is then one lookup by its code.
    const d = coded.dictionary;
    const hits = new Int32Array(d.size);
    const table = new Uint8Array(d.size);
    const found = selectUtf8Literals(dictionaryColumn(d), literals, false, null, d.size, hits, prefix);
    for (let j = 0; j < found; j++) table[hits[j]!] = 1;
    return selectByCode(coded.codes, table, negated, valid, sel, n, out);
  }
  const { offsets, bytes } = v as Utf8Bytes;
  // The literals' bytes back to back, shortest first; those of byte length L are `first[L]` up to `first[L + 1]`.
  const encoded = literals.map((s) => encoder.encode(s)).sort((a, b) => a.length - b.length);
  const maxLength = encoded.length === 0 ? -1 : encoded[encoded.length - 1]!.length;
  const first = new Int32Array(maxLength + 2);
  const at = new Int32Array(encoded.length + 1);
  const flat = new Uint8Array(encoded.reduce((sum, b) => sum + b.length, 0));
  for (let j = 0; j < encoded.length; j++) {
    const b = encoded[j]!;
    flat.set(b, at[j]!);
    at[j + 1] = at[j]! + b.length;
    first[b.length + 1] = j + 1;
  }
  for (let L = 1; L <= maxLength + 1; L++) if (first[L]! < first[L - 1]!) first[L] = first[L - 1]!;
  // Literals of up to 4 bytes also as one little-endian int each: such a row is packed once and compared whole.
  const packed = new Int32Array(encoded.length);
  for (let j = 0; j < encoded.length; j++)
    packed[j] = encoded[j]!.length <= 4 ? pack(flat, at[j]!, encoded[j]!.length) : 0;
  const miss = negated ? 1 : 0;
  const short = maxLength <= 4;
  // Whether the row's bytes equal one of the literals (ints of ≤ 4 bytes packed once, else byte by byte).
  const matches = (start: number, length: number): number => {
    if (length > maxLength) return 0;
    if (length <= 4) {
      const word = pack(bytes, start, length);
      for (let j = first[length]!; j < first[length + 1]!; j++) if (packed[j] === word) return 1;
      return 0;
    }
    for (let j = first[length]!; j < first[length + 1]!; j++) {
      const lit = at[j]!;
      let c = 0;
      while (c < length && bytes[start + c] === flat[lit + c]) c++;
      if (c === length) return 1;
    }
    return 0;
  };
  // A row's bytes compared: all of them, or the first `prefix`.
  const cap = prefix ?? 0x7fffffff;
  if (short) {
    // Literals of up to four bytes: in WebAssembly, one word compare per row and literal (~20 ns a row in JS).
    const k = selectShortTexts(offsets, bytes, col.length, sel, n, cap, encoded, negated, valid, out);
    if (k >= 0) return k;
  }
  let k = 0;
  // Rows are kept branch-free (a list matching a third of the rows would mispredict often). Whole values against
  // one literal with no selection or NULL have loops of their own; prefixes take the general ones.
  const one = prefix === null && sel === null && valid === null && encoded.length === 1;
  if (one && !short) {
    // One long literal (p_brand <> 'Brand#45'): the length, then its first four bytes as one int, then the rest.
    const L = maxLength;
    const head = pack(flat, 0, 4);
    for (let i = 0; i < n; i++) {
      const start = offsets[i]!;
      let hit = offsets[i + 1]! - start === L && pack(bytes, start, 4) === head ? 1 : 0;
      for (let c = 4; hit === 1 && c < L; c++) if (bytes[start + c] !== flat[c]) hit = 0;
      out[k] = i;
      k += (hit ^ miss) | 0;
    }
  } else if (one && short) {
    const L = maxLength;
    const word = packed[0]!;
    if (L === 1) {
      // One-byte flags and statuses (o_orderstatus = 'F'): one length test and one byte.
      for (let i = 0; i < n; i++) {
        const start = offsets[i]!;
        out[k] = i;
        k += ((offsets[i + 1]! - start === 1 && bytes[start] === word ? 1 : 0) ^ miss) | 0;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const start = offsets[i]!;
        out[k] = i;
        k += ((offsets[i + 1]! - start === L && pack(bytes, start, L) === word ? 1 : 0) ^ miss) | 0;
      }
    }
  } else if (encoded.length > 1 && maxLength <= 2 && encoded[0]!.length === maxLength) {
    // Several literals all of one or two bytes (state or country codes, flags): one table lookup per row rather
    // than a scan of the list. `table[word]` is 1 for each literal packed as `pack` does.
    const L = maxLength;
    const table = new Uint8Array(L === 1 ? 256 : 65_536);
    for (const word of packed) table[word] = 1;
    for (let r = 0; r < n; r++) {
      const i = sel === null ? r : sel[r]!;
      const start = offsets[i]!;
      const length = Math.min(offsets[i + 1]! - start, cap);
      const hit = length === L ? table[L === 1 ? bytes[start]! : bytes[start]! | (bytes[start + 1]! << 8)]! : 0;
      out[k] = i;
      k += (hit ^ miss) & (valid === null ? 1 : valid[i]!);
    }
  } else if (sel === null && valid === null) {
    for (let i = 0; i < n; i++) {
      const start = offsets[i]!;
      out[k] = i;
      k += matches(start, Math.min(offsets[i + 1]! - start, cap)) ^ miss;
    }
  } else {
    for (let r = 0; r < n; r++) {
      const i = sel === null ? r : sel[r]!;
      const start = offsets[i]!;
      out[k] = i;
      k += (matches(start, Math.min(offsets[i + 1]! - start, cap)) ^ miss) & (valid === null ? 1 : valid[i]!);
    }
  }
  return k;
}

/** The rows of `sel` (or 0..n) whose code's `table` entry is 1 (0 when `negated`) and that are not NULL. */
function selectByCode(
  codes: Uint8Array,
  table: Uint8Array,
  negated: boolean,
  valid: Uint8Array | null,
  sel: Int32Array | null,
  n: number,
  out: Int32Array,
): number {
  const miss = negated ? 1 : 0;
  let k = 0;
  if (sel === null && valid === null) {
    for (let i = 0; i < n; i++) {
      out[k] = i;
      k += table[codes[i]!]! ^ miss;
    }
  } else {
    for (let r = 0; r < n; r++) {
      const i = sel === null ? r : sel[r]!;
      out[k] = i;
      k += (table[codes[i]!]! ^ miss) & (valid === null ? 1 : valid[i]!);
    }
  }
  return k;
}

/** Bytes [start, start + length) (length ≤ 4) as one little-endian int. */
function pack(bytes: Uint8Array, start: number, length: number): number {
  let word = 0;
  for (let k = length - 1; k >= 0; k--) word = (word << 8) | bytes[start + k]!;
  return word;
}
