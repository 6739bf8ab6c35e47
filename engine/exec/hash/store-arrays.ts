// Growable typed arrays and validity helpers shared by the key stores.

/** Entries a store starts with. */
export const INITIAL_ENTRIES = 64;

/** `a` when it holds `need` entries, else a copy at least twice as long. */
export function grown<T extends Float64Array | Uint8Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const Ctor = a.constructor as new (n: number) => T;
  const b = new Ctor(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** The first n validity bytes as a column's validity: a copy, or null when every entry is valid. */
export function validity(valid: Uint8Array, n: number): Uint8Array | null {
  const v = valid.subarray(0, n);
  return v.includes(0) ? v.slice() : null;
}
