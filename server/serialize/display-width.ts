// `displayWidth`: terminal columns a string occupies (wide East Asian characters and emoji take two).

// [first, last] code point ranges drawn two columns wide (Unicode East Asian Width W/F, common emoji).
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/**
 * Sum of per-code-point widths: 2 for the ranges above, 0 for combining marks (U+0300-U+036F) and
 * zero-width joiners/variation selectors, 1 otherwise. An approximation of wcwidth, enough to keep ASCII
 * tables aligned for CJK text; it does not know grapheme clusters.
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += codePointWidth(ch.codePointAt(0) as number);
  return width;
}

function codePointWidth(cp: number): number {
  if (cp < 0x300) return 1;
  if (cp <= 0x36f || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}
