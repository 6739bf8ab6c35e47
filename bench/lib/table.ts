// `formatTable`: a Markdown table padded the way biome formats Markdown, so that printed tables can be pasted
// into the README unchanged.

/** Columns are as wide as their widest cell (in code points); every cell is left-aligned. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const width = (s: string) => [...s].length;
  const widths = headers.map((h, c) => Math.max(3, width(h), ...rows.map((r) => width(r[c] ?? ''))));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => cell + ' '.repeat(widths[c]! - width(cell))).join(' | ')} |`;
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
