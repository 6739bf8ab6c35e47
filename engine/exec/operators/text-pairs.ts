// `TextPairs`: the distinct (group, text) pairs of a DISTINCT argument, hashed and compared as UTF-8 bytes in one
// open-addressing table, each distinct value's bytes copied once into an arena (no JS string or Set per group).
import type { Column, Utf8Bytes } from '../../arrow/column.js';
import { isUtf8Bytes } from '../../arrow/column.js';
import { textCodesOf } from '../../arrow/gathered-column.js';
import type { TextDictionary } from '../../arrow/text-dictionary.js';
import { hashBytes, mix32 } from '../hash/hash-keys.js';

/** Slot layout, 4 Int32 per slot: group + 1 (0 = empty), hash, the value's start in the arena, its byte length. */
const STRIDE = 4;
const INITIAL_SLOTS = 1024;
const encoder = new TextEncoder();

export class TextPairs {
  #slots = new Int32Array(INITIAL_SLOTS * STRIDE);
  #mask = INITIAL_SLOTS - 1;
  #count = 0;
  #arena = new Uint8Array(1 << 16);
  #used = 0;
  /** The last dictionary seen and its values' hashes: a coded column's rows are hashed by code, once a value. */
  #dictionary: TextDictionary | null = null;
  #dictionaryHashes = new Int32Array(0);

  get size(): number {
    return this.#count;
  }

  /** Adds the pairs (groups[i], row i of `col`) of its valid rows i < n; `col` is utf8. */
  add(groups: Int32Array, n: number, col: Column): void {
    const valid = col.valid;
    const coded = textCodesOf(col);
    const v = col.values;
    const { offsets, bytes } = isUtf8Bytes(v) ? v : encodeStrings(v as string[], n);
    const hashes = coded === null ? null : this.#hashesOf(coded.dictionary);
    const codes = coded?.codes;
    for (let i = 0; i < n; i++) {
      if (valid !== null && valid[i] === 0) continue;
      const start = offsets[i]!;
      const end = offsets[i + 1]!;
      const h = hashes === null ? hashBytes(bytes, start, end) : hashes[codes![i]!]!;
      this.#insert(groups[i]!, h, bytes, start, end - start);
    }
  }

  /** Hashes of the dictionary's values (equal to `hashBytes` of each: coded and plain rows meet). */
  #hashesOf(d: TextDictionary): Int32Array {
    if (this.#dictionary === d) return this.#dictionaryHashes;
    const { offsets, bytes } = d.values;
    const out = new Int32Array(d.size);
    for (let k = 0; k < d.size; k++) out[k] = hashBytes(bytes, offsets[k]!, offsets[k + 1]!);
    this.#dictionary = d;
    this.#dictionaryHashes = out;
    return out;
  }

  #insert(g: number, valueHash: number, bytes: Uint8Array, start: number, len: number): void {
    const h = mix32(valueHash ^ Math.imul(g + 1, 0x85ebca6b));
    const slots = this.#slots;
    const mask = this.#mask;
    const tag = g + 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * STRIDE;
      const t = slots[at]!;
      if (t === 0) {
        slots[at] = tag;
        slots[at + 1] = h;
        slots[at + 2] = this.#keep(bytes, start, len);
        slots[at + 3] = len;
        if (++this.#count * 2 > mask) this.#grow();
        return;
      }
      if (t === tag && slots[at + 1] === h && slots[at + 3] === len && this.#equal(slots[at + 2]!, bytes, start, len))
        return;
    }
  }

  #equal(at: number, bytes: Uint8Array, start: number, len: number): boolean {
    const arena = this.#arena;
    for (let j = 0; j < len; j++) if (arena[at + j] !== bytes[start + j]) return false;
    return true;
  }

  /** Copies a new value's bytes into the arena; returns where they start. */
  #keep(bytes: Uint8Array, start: number, len: number): number {
    const at = this.#used;
    if (at + len > this.#arena.length) {
      const grown = new Uint8Array(Math.max(this.#arena.length * 2, at + len));
      grown.set(this.#arena.subarray(0, at));
      this.#arena = grown;
    }
    this.#arena.set(bytes.subarray(start, start + len), at);
    this.#used = at + len;
    return at;
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / STRIDE - 1;
    for (let at = 0; at < old.length; at += STRIDE) {
      if (old[at] === 0) continue;
      let s = old[at + 1]! & mask;
      while (slots[s * STRIDE] !== 0) s = (s + 1) & mask;
      // Four stores, not a subarray per slot (which made growing cost more than inserting).
      const to = s * STRIDE;
      slots[to] = old[at]!;
      slots[to + 1] = old[at + 1]!;
      slots[to + 2] = old[at + 2]!;
      slots[to + 3] = old[at + 3]!;
    }
    this.#slots = slots;
    this.#mask = mask;
  }

  /** Each group's number of distinct values, for `ngroups` groups. */
  counts(ngroups: number): Float64Array {
    const out = new Float64Array(ngroups);
    const slots = this.#slots;
    for (let at = 0; at < slots.length; at += STRIDE) if (slots[at] !== 0) out[slots[at]! - 1]!++;
    return out;
  }

  /** The pairs: groups, and the values as UTF-8 bytes with offsets. */
  pairs(): { groups: Int32Array; values: Utf8Bytes } {
    const n = this.#count;
    const groups = new Int32Array(n);
    const offsets = new Int32Array(n + 1);
    const bytes = new Uint8Array(this.#used);
    const slots = this.#slots;
    let k = 0;
    let end = 0;
    for (let at = 0; at < slots.length; at += STRIDE) {
      if (slots[at] === 0) continue;
      const start = slots[at + 2]!;
      const len = slots[at + 3]!;
      groups[k] = slots[at]! - 1;
      bytes.set(this.#arena.subarray(start, start + len), end);
      end += len;
      offsets[++k] = end;
    }
    return { groups, values: { offsets, bytes } };
  }
}

/** JS strings as UTF-8 bytes (a column an expression made): hashed and compared as stored ones are. */
function encodeStrings(strings: readonly string[], n: number): Utf8Bytes {
  const offsets = new Int32Array(n + 1);
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let i = 0; i < n; i++) {
    const b = encoder.encode(strings[i] ?? '');
    parts.push(b);
    size += b.length;
    offsets[i + 1] = size;
  }
  const bytes = new Uint8Array(size);
  for (const [i, b] of parts.entries()) bytes.set(b, offsets[i]!);
  return { offsets, bytes };
}
