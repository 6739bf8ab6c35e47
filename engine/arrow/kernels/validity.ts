// Validity kernels: combining null masks of inputs for strict (NULL in, NULL out) operations.
import type { Column } from '../column.js';

/** Rows valid in every column (`null` when no column has nulls). Allocates only when needed. */
export function andValidity(cols: readonly Column[], length: number): Uint8Array | null {
  let out: Uint8Array | null = null;
  for (const c of cols) {
    if (c.type.id === 'null') return new Uint8Array(length);
    if (c.valid === null) continue;
    if (out === null) {
      out = c.valid.slice(0, length);
      continue;
    }
    const v = c.valid;
    for (let i = 0; i < length; i++) out[i] = (out[i] as number) & (v[i] as number);
  }
  return out;
}

/** All-valid mask as `null` when it has no zero (keeps downstream kernels on their fast path). */
export function compactValidity(valid: Uint8Array | null): Uint8Array | null {
  if (valid === null) return null;
  for (let i = 0; i < valid.length; i++) if (valid[i] === 0) return valid;
  return null;
}
