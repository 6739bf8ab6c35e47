// `compareText`: string order by Unicode code point, which is UTF-8 byte order (PostgreSQL's C collation).

/**
 * JavaScript's `<` compares UTF-16 code units, which puts astral characters (surrogate pairs, U+D800–U+DFFF
 * units) below U+E000–U+FFFF; code point order puts them above. The two orders agree on everything else, so
 * this only does extra work at the first differing unit when both are at least U+D800.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
    return x - y;
  }
  return a.length - b.length;
}

/** Surrogates rank above U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
