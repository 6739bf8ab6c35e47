// `forRowsContaining`: the rows of a UTF-8 column whose bytes contain a byte string, found by Node's native
// Buffer search over the whole column rather than row by row (the prefilter of LIKE '%word%').

/**
 * Calls `onRow(i)` once for each row i in [0, n) whose bytes contain `needle` (non-empty), in row order; rows
 * without it are skipped at memchr speed.
 */
export function forRowsContaining(
  offsets: Int32Array,
  bytes: Uint8Array,
  n: number,
  needle: Uint8Array,
  onRow: (i: number) => void,
): void {
  const stop = offsets[n]!;
  const hay = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, stop));
  const len = needle.length;
  let i = 0;
  let from = offsets[0]!;
  while (i < n) {
    const at = hay.indexOf(needle, from);
    if (at < 0 || at + len > stop) return;
    while (offsets[i + 1]! <= at) i++;
    // An occurrence that runs past its row's end means none later in that row fits either.
    if (at + len <= offsets[i + 1]!) onRow(i);
    i++;
    from = offsets[i]!;
  }
}
