// MIN / MAX of text held as UTF-8 bytes: compared as bytes (byte order is code point order, PostgreSQL's C
// collation), each group's best copied into one byte arena; no row is decoded to a JS string (MIN(Referer) over
// 600 k rows of 1 M: 826 ms -> ~70 ms, DuckDB ~45 ms).
import { type Column, makeColumn, type Utf8Bytes, utf8BytesOf } from '../../arrow/column.js';
import { gatheredFrom } from '../../arrow/gathered-column.js';
import type { DataType } from '../../plan/types.js';

/** Rows of a text column as bytes where they lie: a gathered column's source and indices, not a copy. */
interface ByteRows {
  readonly values: Utf8Bytes;
  readonly valid: Uint8Array | null;
  /** Row i is source row `rows[i]`; null: row i. */
  readonly rows: Int32Array | null;
}

/** `col`'s bytes (through a gather when it is one), or null when it holds JS strings. */
export function byteRowsOf(col: Column): ByteRows | null {
  const g = gatheredFrom(col);
  if (g !== null && !g.padded) {
    const values = utf8BytesOf(g.source);
    return values === null ? null : { values, valid: g.source.valid, rows: g.indices };
  }
  const values = utf8BytesOf(col);
  return values === null ? null : { values, valid: col.valid, rows: null };
}

/** MIN (`sign` -1) or MAX (`sign` 1) per group over byte rows. */
export class TextMinMax {
  #start = new Int32Array(16);
  /** -1 while the group has seen no value. */
  #len = new Int32Array(16).fill(-1);
  #arena = new Uint8Array(1 << 12);
  #used = 0;
  #live = 0;

  constructor(
    readonly sign: 1 | -1,
    readonly type: DataType,
  ) {}

  /** Row `sel[i]` (or i) of `col` into group `groups[i]`, i < n. */
  update(groups: Int32Array, n: number, col: ByteRows, ngroups: number, sel: Int32Array | null): void {
    this.#ensure(ngroups);
    const { offsets, bytes } = col.values;
    const { valid, rows } = col;
    const len = this.#len;
    const start = this.#start;
    for (let i = 0; i < n; i++) {
      const j = sel === null ? i : sel[i]!;
      const r = rows === null ? j : rows[j]!;
      if (valid !== null && valid[r] === 0) continue;
      const g = groups[i]!;
      const from = offsets[r]!;
      const to = offsets[r + 1]!;
      if (len[g]! >= 0 && compareBytes(bytes, from, to, this.#arena, start[g]!, start[g]! + len[g]!) * this.sign <= 0)
        continue;
      this.#keep(g, bytes, from, to);
    }
  }

  /** Each group's best as a column (NULL where no value came). */
  finish(ngroups: number): Column {
    this.#ensure(ngroups);
    const offsets = new Int32Array(ngroups + 1);
    const valid = new Uint8Array(ngroups);
    let size = 0;
    for (let g = 0; g < ngroups; g++) size += Math.max(this.#len[g]!, 0);
    const out = new Uint8Array(size);
    let at = 0;
    for (let g = 0; g < ngroups; g++) {
      offsets[g] = at;
      const l = this.#len[g]!;
      if (l < 0) continue;
      valid[g] = 1;
      out.set(this.#arena.subarray(this.#start[g]!, this.#start[g]! + l), at);
      at += l;
    }
    offsets[ngroups] = at;
    return makeColumn(this.type, { offsets, bytes: out }, valid.includes(0) ? valid : null, ngroups);
  }

  /** Best values so far as strings (the general path takes over when a batch holds JS strings). */
  strings(ngroups: number, decode: (b: Uint8Array, s: number, e: number) => string): (string | null)[] {
    this.#ensure(ngroups);
    return Array.from({ length: ngroups }, (_, g) =>
      this.#len[g]! < 0 ? null : decode(this.#arena, this.#start[g]!, this.#start[g]! + this.#len[g]!),
    );
  }

  #keep(g: number, bytes: Uint8Array, from: number, to: number): void {
    const l = to - from;
    if (this.#used + l > this.#arena.length) this.#grow(l);
    this.#live += l - Math.max(this.#len[g]!, 0);
    this.#arena.set(bytes.subarray(from, to), this.#used);
    this.#start[g] = this.#used;
    this.#len[g] = l;
    this.#used += l;
  }

  /** Replaced values leave garbage behind: compact when most of the arena is garbage, else double it. */
  #grow(need: number): void {
    const size = Math.max(this.#arena.length, 2 * (this.#live + need));
    const next = new Uint8Array(size);
    let at = 0;
    for (let g = 0; g < this.#len.length; g++) {
      const l = this.#len[g]!;
      if (l <= 0) continue;
      next.set(this.#arena.subarray(this.#start[g]!, this.#start[g]! + l), at);
      this.#start[g] = at;
      at += l;
    }
    this.#arena = next;
    this.#used = at;
  }

  #ensure(ngroups: number): void {
    if (ngroups <= this.#len.length) return;
    const size = Math.max(ngroups, this.#len.length * 2);
    const start = new Int32Array(size);
    start.set(this.#start);
    const len = new Int32Array(size).fill(-1);
    len.set(this.#len);
    [this.#start, this.#len] = [start, len];
  }
}

/** Byte order of a[af, at) and b[bf, bt): negative, zero or positive. */
function compareBytes(a: Uint8Array, af: number, at: number, b: Uint8Array, bf: number, bt: number): number {
  const n = Math.min(at - af, bt - bf);
  for (let k = 0; k < n; k++) {
    const d = a[af + k]! - b[bf + k]!;
    if (d !== 0) return d;
  }
  return at - af - (bt - bf);
}
