// `applyEdits`: replaces ranges of SQL text and maps offsets in the result back to the original.

export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface EditedText {
  readonly text: string;
  /** The offset in the original text of offset `at` in the edited text. */
  toSource(at: number): number;
}

/** Applies non-overlapping edits given in text order. */
export function applyEdits(sql: string, edits: readonly TextEdit[]): EditedText {
  let text = '';
  let copied = 0;
  const marks: { at: number; source: number }[] = [];
  for (const e of edits) {
    text += sql.slice(copied, e.start);
    marks.push({ at: text.length, source: e.start });
    text += e.text;
    copied = e.end;
    marks.push({ at: text.length, source: e.end });
  }
  text += sql.slice(copied);
  return {
    text,
    toSource(at) {
      let best = { at: 0, source: 0 };
      for (const m of marks) if (m.at <= at) best = m;
      return best.source + (at - best.at);
    },
  };
}
