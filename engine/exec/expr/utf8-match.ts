// Equality of a text column with literals, on its UTF-8 bytes: an accelerated or Parquet column compared with
// `= 'x'` or `IN ('x', 'y')` is never decoded into JavaScript strings.
import type { Column, Utf8Bytes } from '../../arrow/column.js';
import { hasUtf8Form } from '../../arrow/kernels/utf8-compare.js';

const encoder = new TextEncoder();

/** Per row, 1 where the value equals one of `literals`; `null` when the column is not held as UTF-8 bytes. */
export function matchUtf8Literals(col: Column, literals: readonly string[]): Uint8Array | null {
  const v = col.values;
  if (col.type.id !== 'utf8' || v === null || Array.isArray(v) || !('offsets' in v)) return null;
  if (!literals.every(hasUtf8Form)) return null;
  const { offsets, bytes } = v as Utf8Bytes;
  const byLength = new Map<number, Uint8Array[]>();
  for (const s of literals) {
    const b = encoder.encode(s);
    const list = byLength.get(b.length);
    if (list) list.push(b);
    else byLength.set(b.length, [b]);
  }
  const n = col.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const start = offsets[i]!;
    const candidates = byLength.get(offsets[i + 1]! - start);
    if (candidates === undefined) continue;
    for (const c of candidates) {
      let k = 0;
      while (k < c.length && bytes[start + k] === c[k]) k++;
      if (k === c.length) {
        out[i] = 1;
        break;
      }
    }
  }
  return out;
}
