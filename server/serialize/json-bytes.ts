// `makeJsonRowBytes`: a batch's rows as JSON objects written straight to UTF-8 bytes (application/json's rows).
import { type Batch, type Column, cellText, type Schema, type Utf8Bytes } from '../../engine/index.js';

/**
 * Writes a batch's rows as `{"col":value,...}` separated by commas (with a comma first when `comma`), or, when
 * `lines`, each row followed by `\n` and no commas (NDJSON).
 */
export type RowBytesWriter = (batch: Batch, comma: boolean, lines?: boolean) => Uint8Array;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The scratch buffer is dropped after a batch that grew it past this, so a worker does not keep its peak. */
const KEEP_SCRATCH_BYTES = 4 << 20;
/** Decimal scales written digit by digit (10^scale is exact in a double); larger ones go through `cellText`. */
const MAX_FAST_SCALE = 15;
const POWERS_OF_TEN = Array.from({ length: MAX_FAST_SCALE + 1 }, (_, i) => 10 ** i);

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const writers = new WeakMap<Schema, RowBytesWriter>();

/**
 * Values follow the column's JSON kind: numbers bare (exact decimal text, never rounded through a float),
 * booleans bare, everything else quoted. NULL is an explicit `null`, unlike arrow-json which drops the key.
 * Non-finite floats have no JSON spelling, so they become the strings "NaN", "Infinity" and "-Infinity".
 * Written as bytes, without a JS string per value: UTF-8 text that needs no escape
 * (no `"`, `\` or control character; well-formed) is copied byte for byte; other text goes through
 * JSON.stringify; numbers, dates and the rest through `cellText`. Made once per schema object, like the row
 * writer (a cached plan returns the same schema on every run).
 */
export function makeJsonRowBytes(schema: Schema): RowBytesWriter {
  let writer = writers.get(schema);
  if (writer === undefined) {
    writer = rowBytesWriter(schema);
    writers.set(schema, writer);
  }
  return writer;
}

function rowBytesWriter(schema: Schema): RowBytesWriter {
  const keys = schema.fields.map((f, i) => encoder.encode(`${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:`));
  return (batch, comma, lines = false) => {
    const out = scratch();
    // One writer per column for this batch, holding its arrays: no property lookups or type switch per value.
    const cells = batch.columns.map(cellWriter);
    for (let r = 0; r < batch.length; r++) {
      if (!lines && (r > 0 || comma)) out.byte(0x2c);
      if (cells.length === 0) out.byte(0x7b);
      for (let c = 0; c < cells.length; c++) {
        out.bytes(keys[c]!);
        cells[c]!(out, r);
      }
      out.byte(0x7d);
      if (lines) out.byte(0x0a);
    }
    return out.take();
  };
}

type CellWriter = (out: ByteOut, r: number) => void;

function cellWriter(col: Column): CellWriter {
  const valid = col.valid;
  const write = valueWriter(col);
  if (valid === null) return write;
  return (out, r) => {
    if (valid[r] === 0) out.ascii('null');
    else write(out, r);
  };
}

function valueWriter(col: Column): CellWriter {
  const type = col.type;
  const v = col.values;
  switch (type.id) {
    case 'utf8': {
      if (Array.isArray(v)) return (out, r) => out.text(JSON.stringify(v[r]));
      const { offsets, bytes } = v as Utf8Bytes;
      return (out, r) => writeUtf8(out, bytes, offsets[r]!, offsets[r + 1]!);
    }
    case 'int32': {
      const ints = v as Int32Array;
      return (out, r) => out.integer(ints[r]!);
    }
    case 'bool': {
      const bools = v as Uint8Array;
      return (out, r) => out.ascii(bools[r] ? 'true' : 'false');
    }
    case 'int64':
    case 'decimal': {
      // Float64-backed: exact integers (scaled, for decimals) within ±2^53.
      const scale = type.id === 'decimal' ? type.scale : 0;
      if (v instanceof Float64Array && scale <= MAX_FAST_SCALE) return (out, r) => out.decimal(v[r]!, scale);
      return (out, r) => out.ascii(cellText(col, r) as string);
    }
    case 'float64':
      return (out, r) => {
        // cellText spells non-finite floats NaN / Infinity / -Infinity; any other number text ends in a digit.
        const text = cellText(col, r) as string;
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0x30 && last <= 0x39) out.ascii(text);
        else out.quotedAscii(text);
      };
    case 'null':
      return (out) => out.ascii('null');
    default:
      // date, timestamp, interval: ASCII text (digits, '-', ':', '.', ' ').
      return (out, r) => {
        const text = cellText(col, r);
        if (text === null) out.ascii('null');
        else out.quotedAscii(text);
      };
  }
}

/** UTF-8 text bytes [start, end) as a JSON string: its bytes between quotes when nothing needs escaping. */
function writeUtf8(out: ByteOut, bytes: Uint8Array, start: number, end: number): void {
  let plain = true;
  let ascii = true;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b < 0x20 || b === QUOTE || b === BACKSLASH) {
      plain = false;
      break;
    }
    if (b > 0x7f) ascii = false;
  }
  if (plain && (ascii || isWellFormedUtf8(bytes, start, end))) {
    out.reserve(end - start + 2);
    out.byte(QUOTE);
    out.range(bytes, start, end);
    out.byte(QUOTE);
  } else {
    // Escapes, or malformed bytes (which decode to U+FFFD, as the string path gives).
    out.text(JSON.stringify(decoder.decode(bytes.subarray(start, end))));
  }
}

/** Whether bytes [start, end) are well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
export function isWellFormedUtf8(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + need >= end) return false;
    const c1 = b[i + 1]!;
    if (c1 < lo || c1 > hi) return false;
    for (let k = 2; k <= need; k++) {
      const ck = b[i + k]!;
      if (ck < 0x80 || ck > 0xbf) return false;
    }
    i += need + 1;
  }
  return true;
}

/** A growable byte buffer, reused by every batch this thread writes (`take` copies the bytes out). */
class ByteOut {
  buf = new Uint8Array(64 * 1024);
  len = 0;

  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }

  bytes(src: Uint8Array): void {
    this.range(src, 0, src.length);
  }

  /** Bytes [start, end) of `src` (short runs copied in a loop: no subarray per value). */
  range(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    if (n <= 32) for (let i = 0; i < n; i++) this.buf[this.len + i] = src[start + i]!;
    else this.buf.set(src.subarray(start, end), this.len);
    this.len += n;
  }

  /** A string of ASCII characters only. */
  ascii(s: string): void {
    this.reserve(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.len++] = s.charCodeAt(i);
  }

  /** `"` + ASCII characters + `"` (text that needs no escape). */
  quotedAscii(s: string): void {
    this.reserve(s.length + 2);
    this.buf[this.len++] = QUOTE;
    for (let i = 0; i < s.length; i++) this.buf[this.len++] = s.charCodeAt(i);
    this.buf[this.len++] = QUOTE;
  }

  /** An integer within ±2^53, in decimal digits. */
  integer(x: number): void {
    this.reserve(17);
    let n = x;
    if (n < 0) {
      this.buf[this.len++] = 0x2d;
      n = -n;
    }
    if (n > 0x7fffffff) {
      // Past int32: the digits of the high part, then 9 of the low part.
      const high = Math.floor(n / 1e9);
      this.integer(high);
      this.#digits(n - high * 1e9, 9);
      return;
    }
    let width = 1;
    for (let t = 10; t <= n; t *= 10) width++;
    this.#digits(n, width);
  }

  /** `width` decimal digits of int32 `n` (zero-padded on the left). */
  #digits(n: number, width: number): void {
    let at = this.len + width;
    this.len = at;
    let m = n | 0;
    for (let k = 0; k < width; k++) {
      const q = (m / 10) | 0;
      this.buf[--at] = 0x30 + m - q * 10;
      m = q;
    }
  }

  /** A scaled integer within ±2^53 as exact decimal text: (12345, 2) -> 123.45, as `formatDecimal` writes it. */
  decimal(scaled: number, scale: number): void {
    if (scale === 0) {
      this.integer(scaled);
      return;
    }
    const p = POWERS_OF_TEN[scale]!;
    const neg = scaled < 0;
    const a = neg ? -scaled : scaled;
    // Exact: integers below 2^53, and a − frac is a multiple of p.
    const frac = a % p;
    const whole = (a - frac) / p;
    // Sign, up to 16 digits, the point and the fraction: integer() then finds its room without growing.
    this.reserve(scale + 20);
    if (neg) this.buf[this.len++] = 0x2d;
    this.integer(whole);
    this.buf[this.len++] = 0x2e;
    if (scale <= 9) this.#digits(frac, scale);
    else {
      const high = Math.floor(frac / 1e9);
      this.#digits(high, scale - 9);
      this.#digits(frac - high * 1e9, 9);
    }
  }

  /** Any string, as UTF-8. */
  text(s: string): void {
    this.reserve(s.length * 3);
    this.len += encoder.encodeInto(s, this.buf.subarray(this.len)).written;
  }

  take(): Uint8Array {
    const out = this.buf.slice(0, this.len);
    this.len = 0;
    if (this.buf.length > KEEP_SCRATCH_BYTES) shared = null;
    return out;
  }
}

let shared: ByteOut | null = null;
function scratch(): ByteOut {
  shared ??= new ByteOut();
  return shared;
}
