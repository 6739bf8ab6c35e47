// Small statistics for benchmark runs: median and geometric mean.

/** The median of `xs` (mean of the middle two for an even count); NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The geometric mean of positive numbers; NaN for none. */
export function geomean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  return Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
}
