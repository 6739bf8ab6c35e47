// Ordering comparisons of text held as UTF-8 bytes: byte order of UTF-8 is code point order, the order
// `compareText` gives decoded strings, so `<`, `<=`, `>`, `>=`, `=` and `<>` never decode.
import type { Utf8Bytes } from '../column.js';

export type TextCmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

const encoder = new TextEncoder();

/** Whether a comparison result (negative, zero, positive) satisfies `op`. */
function test(op: TextCmpOp, c: number): boolean {
  switch (op) {
    case '=':
      return c === 0;
    case '<>':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

/** Sign of bytes a[as, ae) against b[bs, be) in lexicographic byte order (code point order for UTF-8). */
export function compareUtf8Range(a: Uint8Array, as: number, ae: number, b: Uint8Array, bs: number, be: number): number {
  const la = ae - as;
  const lb = be - bs;
  const n = Math.min(la, lb);
  for (let k = 0; k < n; k++) {
    const x = a[as + k]!;
    const y = b[bs + k]!;
    if (x !== y) return x - y;
  }
  return la - lb;
}

/**
 * Per row, 1 where `value op literal`, or `null` when the literal holds a lone surrogate (it has no UTF-8 form,
 * so the caller compares decoded strings instead). NULL rows get 0; the caller applies validity.
 */
export function compareUtf8Literal(op: TextCmpOp, v: Utf8Bytes, n: number, literal: string): Uint8Array | null {
  if (!hasUtf8Form(literal)) return null;
  const lit = encoder.encode(literal);
  const { offsets, bytes } = v;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = compareUtf8Range(bytes, offsets[i]!, offsets[i + 1]!, lit, 0, lit.length);
    out[i] = test(op, c) ? 1 : 0;
  }
  return out;
}

/** Per row, 1 where `a[i] op b[i]`, written into `out`; NULL rows get an arbitrary value (the caller applies validity). */
export function compareUtf8Columns(
  op: TextCmpOp,
  a: Utf8Bytes,
  b: Utf8Bytes,
  n: number,
  out = new Uint8Array(n),
): Uint8Array {
  const ao = a.offsets;
  const bo = b.offsets;
  const ab = a.bytes;
  const bb = b.bytes;
  if (op === '=' || op === '<>') {
    const eq = op === '=' ? 1 : 0;
    for (let i = 0; i < n; i++) {
      const as = ao[i]!;
      const bs = bo[i]!;
      const len = ao[i + 1]! - as;
      let same = len === bo[i + 1]! - bs;
      for (let k = 0; same && k < len; k++) same = ab[as + k] === bb[bs + k];
      out[i] = same ? eq : 1 - eq;
    }
    return out;
  }
  for (let i = 0; i < n; i++)
    out[i] = test(op, compareUtf8Range(ab, ao[i]!, ao[i + 1]!, bb, bo[i]!, bo[i + 1]!)) ? 1 : 0;
  return out;
}

/** No unpaired surrogate (String.prototype.isWellFormed, ES2024): the string has an exact UTF-8 form. */
export function hasUtf8Form(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (u >= 0xdc00 && u <= 0xdfff) return false;
  }
  return true;
}
