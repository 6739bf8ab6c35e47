// LIKE / ILIKE on UTF-8 bytes: a constant pattern compiles to anchored and floating byte segments, matched
// without decoding the column.
import type { Utf8Bytes } from '../column.js';
import { decodeRange } from '../column.js';
import { forRowsContaining, rarest } from './utf8-find.js';

/** Per row, 1 where the value matches; rows it cannot judge on bytes go to the string matcher. */
export type Utf8LikeMatcher = (v: Utf8Bytes, n: number) => Uint8Array;

/** A run of pattern bytes between two `%`; `wild[k]` is 1 where the pattern has `_` (one byte, ASCII rows only). */
interface Segment {
  readonly bytes: Uint8Array;
  readonly wild: Uint8Array | null;
}

const encoder = new TextEncoder();

/** ASCII lower-casing of one byte; bytes ≥ 0x80 are left alone. */
const ASCII_LOWER = Uint8Array.from({ length: 256 }, (_, b) => (b >= 65 && b <= 90 ? b + 32 : b));
const IDENTITY = Uint8Array.from({ length: 256 }, (_, b) => b);

/**
 * Compiles a LIKE pattern (`%` any run, `_` one character, `escapeChar` quotes the next character) to a byte
 * matcher, or returns `null` when bytes cannot decide it (ILIKE with a non-ASCII pattern: Unicode case folding
 * can map non-ASCII letters onto ASCII ones). `_` is one code point, so with `_` in the pattern, and with ILIKE
 * (ASCII folding only), a row holding non-ASCII bytes is decoded and given to `fallback`.
 */
export function compileUtf8Like(
  pattern: string,
  caseInsensitive: boolean,
  escapeChar: string,
  fallback: (s: string) => boolean,
): Utf8LikeMatcher | null {
  const parsed = parsePattern(pattern, escapeChar, caseInsensitive);
  if (parsed === null) return null;
  const { segments, hasWild } = parsed;
  const fold = caseInsensitive ? ASCII_LOWER : IDENTITY;
  const match = segments.length === 1 ? exactMatcher(segments[0]!, fold) : floatingMatcher(segments, fold);
  const asciiOnly = hasWild || caseInsensitive;
  const middles = asciiOnly
    ? []
    : segments
        .slice(1, -1)
        .map((s) => s.bytes)
        .filter((b) => b.length > 0);
  // Chosen on the first batch: the middle segment found least often there (each occurrence costs a native call).
  let needle: Uint8Array | null = middles.length === 1 ? middles[0]! : null;
  return (v, n) => {
    const { offsets, bytes } = v;
    const out = new Uint8Array(n);
    if (needle === null && middles.length > 1) needle = rarest(middles, bytes.subarray(offsets[0]!, offsets[n]!));
    if (needle !== null) {
      // A row lacking a middle segment cannot match: only rows holding it go to the row matcher.
      forRowsContaining(offsets, bytes, n, needle, (i) => {
        out[i] = match(bytes, offsets[i]!, offsets[i + 1]!) ? 1 : 0;
      });
      return out;
    }
    const checkRows = asciiOnly && !isAsciiRange(bytes, offsets[0]!, offsets[n]!);
    for (let i = 0; i < n; i++) {
      const s = offsets[i]!;
      const e = offsets[i + 1]!;
      if (checkRows && !isAsciiRange(bytes, s, e)) out[i] = fallback(decodeRange(bytes, s, e)) ? 1 : 0;
      else out[i] = match(bytes, s, e) ? 1 : 0;
    }
    return out;
  };
}

/** The pattern split at `%` into byte segments (ASCII letters lower-cased for ILIKE). */
function parsePattern(
  pattern: string,
  escapeChar: string,
  caseInsensitive: boolean,
): { segments: Segment[]; hasWild: boolean } | null {
  const segments: Segment[] = [];
  let text = '';
  let wildAt: number[] = [];
  let hasWild = false;
  const close = () => {
    const bytes = encoder.encode(text);
    let wild: Uint8Array | null = null;
    if (wildAt.length > 0) {
      wild = new Uint8Array(bytes.length);
      for (const k of wildAt) wild[k] = 1;
    }
    segments.push({ bytes, wild });
    text = '';
    wildAt = [];
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (escapeChar !== '' && ch === escapeChar) {
      // A trailing escape is an error the string matcher reports; the caller compiles that first.
      text += pattern[++i] ?? '';
    } else if (ch === '%') close();
    else if (ch === '_') {
      // Byte offset of the wildcard: the segment so far is ASCII whenever it matters (ASCII rows only).
      wildAt.push(encoder.encode(text).length);
      text += '_';
      hasWild = true;
    } else text += ch;
  }
  close();
  if (caseInsensitive) {
    for (const s of segments) {
      for (let k = 0; k < s.bytes.length; k++) {
        const b = s.bytes[k]!;
        if (b >= 0x80) return null;
        s.bytes[k] = ASCII_LOWER[b]!;
      }
    }
  }
  return { segments, hasWild };
}

type RowMatch = (bytes: Uint8Array, s: number, e: number) => boolean;

/** Whether `seg` matches at byte `p` (the caller checked it fits). */
function matchesAt(bytes: Uint8Array, p: number, seg: Segment, fold: Uint8Array): boolean {
  const b = seg.bytes;
  const w = seg.wild;
  for (let k = 0; k < b.length; k++) {
    if (fold[bytes[p + k]!] !== b[k] && (w === null || w[k] === 0)) return false;
  }
  return true;
}

function exactMatcher(seg: Segment, fold: Uint8Array): RowMatch {
  const len = seg.bytes.length;
  return (bytes, s, e) => e - s === len && matchesAt(bytes, s, seg, fold);
}

/**
 * `first % mid… % last`: `first` anchored at the start, `last` at the end, each middle segment at its leftmost
 * place after the previous one. Segments have fixed lengths, so leftmost is never worse than any later place.
 */
function floatingMatcher(segments: readonly Segment[], fold: Uint8Array): RowMatch {
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  const middle = segments.slice(1, -1).filter((m) => m.bytes.length > 0);
  const head = first.bytes.length;
  const tail = last.bytes.length;
  const finders = middle.map((m) => segmentFinder(m, fold));
  return (bytes, s, e) => {
    if (e - s < head + tail) return false;
    if (head > 0 && !matchesAt(bytes, s, first, fold)) return false;
    if (tail > 0 && !matchesAt(bytes, e - tail, last, fold)) return false;
    let at = s + head;
    const end = e - tail;
    for (const find of finders) {
      at = find(bytes, at, end);
      if (at < 0) return false;
    }
    return true;
  };
}

/** Finds `seg` in bytes [from, end), returning the offset just past it or -1; scans for its first byte. */
function segmentFinder(seg: Segment, fold: Uint8Array): (bytes: Uint8Array, from: number, end: number) => number {
  const len = seg.bytes.length;
  const b0 = seg.bytes[0]!;
  if (seg.wild !== null && seg.wild[0] === 1) {
    return (bytes, from, end) => {
      for (let p = from; p + len <= end; p++) if (matchesAt(bytes, p, seg, fold)) return p + len;
      return -1;
    };
  }
  // ILIKE: the first byte may appear in either case.
  const b0upper = fold === ASCII_LOWER && b0 >= 97 && b0 <= 122 ? b0 - 32 : b0;
  return (bytes, from, end) => {
    const last = end - len;
    for (let p = from; p <= last; p++) {
      const x = bytes[p]!;
      if ((x === b0 || x === b0upper) && matchesAt(bytes, p, seg, fold)) return p + len;
    }
    return -1;
  };
}

function isAsciiRange(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}
