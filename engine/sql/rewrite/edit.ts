// `applyEdits`: replaces spans of SQL text and maps offsets in the result back to the original.

/** Replace `[start, end)` of the text with `text` (start === end inserts). */
export interface SqlEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** When `text` is a verbatim copy of the original at `source` (text moved elsewhere), offsets inside it map there. */
  readonly source?: number;
}

/** Maps an offset in rewritten text to the offset in the text before the rewrite. */
export type OffsetMap = (offset: number) => number;

export interface Edited {
  readonly sql: string;
  readonly toOriginal: OffsetMap;
}

/**
 * Applies non-overlapping edits (in any order; inserts at one offset keep their order). Offsets inside
 * replacement text map to the start of the span it replaced, so an error there points at the original token,
 * unless the edit names its `source`. Throws on overlapping edits (a bug in a rewrite, not in the SQL).
 */
export function applyEdits(sql: string, edits: readonly SqlEdit[]): Edited {
  if (edits.length === 0) return { sql, toOriginal: (o) => o };
  const sorted = edits.map((e, k) => ({ ...e, k })).sort((a, b) => a.start - b.start || a.end - b.end || a.k - b.k);
  // Pieces of the output: [newStart, origStart, length, verbatim].
  const pieces: [number, number, number, boolean][] = [];
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping SQL rewrites at offset ${e.start}`);
    pieces.push([out.length, at, e.start - at, true]);
    out += sql.slice(at, e.start);
    pieces.push([out.length, e.source ?? e.start, e.text.length, e.source !== undefined]);
    out += e.text;
    at = e.end;
  }
  pieces.push([out.length, at, sql.length - at, true]);
  out += sql.slice(at);
  const toOriginal = (offset: number): number => {
    for (const [newStart, origStart, length, verbatim] of pieces) {
      if (offset < newStart + length) return verbatim ? origStart + (offset - newStart) : origStart;
    }
    return sql.length;
  };
  return { sql: out, toOriginal };
}

/** A same-length replacement: `text` padded with spaces to the span's length, keeping every offset. */
export function replaceKeepingLength(start: number, end: number, text: string): SqlEdit {
  if (text.length > end - start) throw new Error(`replacement "${text}" is longer than the span it replaces`);
  return { start, end, text: text.padEnd(end - start, ' ') };
}
