// Narrow copies of number columns that hold small integers (TPC-H's quantities, discounts and taxes: scaled
// decimals held as Float64Array; its dates: days since 1970 held as Int32Array): an accelerated table keeps each
// such chunk's values also as one- or two-byte integers; a filter compares those instead, and a take of scattered
// rows of a Float64 column reads them. The same values in an eighth or a quarter of the bytes: q06's
// `l_quantity < 24` over the 236k rows left of 6M read 10.5 ms of Float64 and 1.2 ms of Int16 (a sparse selection
// touches a cache line per row of the wide array, one per few rows of the narrow one), and a date range over a
// whole batch streams half the bytes of its Int32 values. The copy sits beside the values (a WeakMap, like sorted
// marks and text codes), so every column keeps one shape.

/** A narrow copy's array: the same integers as the wide values, row for row. */
export type NarrowArray = Int8Array | Int16Array;

/** The wide arrays that can have a narrow copy. */
export type WideArray = Float64Array | Int32Array;

const narrowed = new WeakMap<WideArray, NarrowArray>();

/**
 * The valid rows [0, n) of `values` as Int8 or Int16 when every one is an integer that fits (NULL rows hold 0),
 * made by `alloc` (shared memory for a loaded table); null when some valid row does not fit two bytes.
 */
export function narrowValues(
  values: WideArray,
  valid: Uint8Array | null,
  n: number,
  alloc: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
): NarrowArray | null {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const x = values[i]!;
    // Fractions, NaN, -0 and values beyond two bytes: no copy. The copy holds exactly the values (takes read
    // it in their place: a -0 would come back as 0).
    if ((x | 0) !== x || x < -32768 || x > 32767 || (x === 0 && 1 / x < 0)) return null;
    if (x < lo) lo = x;
    else if (x > hi) hi = x;
  }
  const wide = lo < -128 || hi > 127;
  const mem = alloc(wide ? 2 * n : n);
  const out = wide ? new Int16Array(mem.buffer, mem.byteOffset, n) : new Int8Array(mem.buffer, mem.byteOffset, n);
  for (let i = 0; i < n; i++) if (valid === null || valid[i] === 1) out[i] = values[i]!;
  return out;
}

/** Records `narrow` as the narrow copy of `values` (same length, same integers in its valid rows). */
export function attachNarrow(values: WideArray, narrow: NarrowArray): void {
  if (narrow.length === values.length) narrowed.set(values, narrow);
}

/** The narrow copy of `values`, or null when it has none. */
export function narrowOf(values: unknown): NarrowArray | null {
  return values instanceof Float64Array || values instanceof Int32Array ? (narrowed.get(values) ?? null) : null;
}

/**
 * The narrow copy of Float64 `values`, or null (none, or Int32 values): for gathers that write Float64 values from
 * it. An Int32 column's copy serves its filters only.
 */
export function narrowOfFloat64(values: unknown): NarrowArray | null {
  return values instanceof Float64Array ? (narrowed.get(values) ?? null) : null;
}

/** The narrow copy of `values` (when attached) carried over to `slice`, its rows [start, end). */
export function sliceNarrow(values: WideArray, slice: WideArray, start: number, end: number): void {
  const narrow = narrowed.get(values);
  if (narrow !== undefined) narrowed.set(slice, narrow.subarray(start, end));
}
