// `rewriteWindowSpecs` lifts what node-sql-parser cannot read out of window specifications before parsing.
//
// node-sql-parser 5.4 (PostgreSQL dialect) rejects RANGE and GROUPS frames, interval and `$n` offsets, frame
// exclusion, `OVER (w ORDER BY …)` and percent_rank()/cume_dist(), and it keeps `ROWS 3 PRECEDING` only as
// the text "3 PRECEDING". So every window specification — `OVER (…)`, `OVER name` and `WINDOW name AS (…)` —
// is parsed here instead: its frame clause and base window name are noted, and the text is rewritten to a
// form the parser accepts, with a marker frame `ROWS <k> PRECEDING` whose k indexes the notes:
//   OVER (w ORDER BY x RANGE INTERVAL '1' DAY PRECEDING) -> OVER ( ORDER BY x ROWS 0 PRECEDING)
//   OVER w                                               -> OVER ( ROWS 1 PRECEDING)
//   percent_rank() OVER (…)                              -> rank() OVER (… ROWS 2 PRECEDING)
// `attachWindowNotes` (index.ts) then swaps each marker in the AST for its note.
import type { SqlEdit } from './edit.js';
import { keyword, matchingParen, type Token } from './tokenize.js';

export type FrameUnits = 'rows' | 'range' | 'groups';
export type FrameBoundKind = 'unbounded_preceding' | 'preceding' | 'current_row' | 'following' | 'unbounded_following';
export type FrameExclusion = 'no_others' | 'current_row' | 'group' | 'ties';

/** An offset expression as written, with its position in the original text. */
export interface OffsetText {
  readonly text: string;
  readonly at: number;
}

export interface FrameBoundNote {
  readonly kind: FrameBoundKind;
  readonly offset: OffsetText | null;
}

export interface FrameNote {
  readonly units: FrameUnits;
  readonly start: FrameBoundNote;
  readonly end: FrameBoundNote;
  readonly exclude: FrameExclusion;
}

/** What the rewrite removed from one window specification. */
export interface WindowSpecNote {
  /** The window this one refines (`OVER (w …)`) or names (`OVER w`); unquoted names fold to lower case. */
  readonly base: string | null;
  /** `OVER w` without parentheses (PostgreSQL lets it use a window with a frame clause). */
  readonly bare: boolean;
  /** The function's real name when the rewrite renamed it to one the parser accepts. */
  readonly fn: string | null;
  /** The PARTITION BY list (the parser takes only columns and function calls there). */
  readonly partitionBy: OffsetText | null;
  readonly frame: FrameNote | null;
}

/** A syntax error found by a rewrite, at an offset of the original text. */
export class RewriteSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly found: string | null,
  ) {
    super(`syntax error at offset ${offset}`);
  }
}

const SPEC_KEYWORDS = new Set(['partition', 'order', 'rows', 'range', 'groups']);
/** Window functions the parser does not know, spelled as one it does (the note restores the name). */
const RENAMED: Record<string, string> = { percent_rank: 'rank', cume_dist: 'rank' };

/** Edits over `tokens`, the significant tokens of the text (see `significant`), and the notes they refer to. */
export function rewriteWindowSpecs(tokens: readonly Token[]): { edits: SqlEdit[]; notes: WindowSpecNote[] } {
  const edits: SqlEdit[] = [];
  const notes: WindowSpecNote[] = [];
  const word = (i: number) => keyword(tokens[i]);
  const isPunct = (i: number, p: string) => tokens[i]?.kind === 'punct' && tokens[i]!.text === p;
  let renamed: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const w = word(i);
    if (w !== null && w in RENAMED && isPunct(i + 1, '(') && isPunct(i + 2, ')') && word(i + 3) === 'over') {
      edits.push({ start: tokens[i]!.start, end: tokens[i]!.end, text: RENAMED[w]! });
      renamed = w;
    } else if (w === 'over' && isPunct(i + 1, '(')) {
      i = rewriteSpec(tokens, i + 1, renamed, edits, notes);
      renamed = null;
    } else if (w === 'over' && (tokens[i + 1]?.kind === 'word' || tokens[i + 1]?.kind === 'quoted')) {
      const name = tokens[i + 1]!;
      edits.push({ start: name.start, end: name.end, text: `( ROWS ${notes.length} PRECEDING)` });
      notes.push({ base: identifier(name), bare: true, fn: renamed, partitionBy: null, frame: null });
      renamed = null;
      i++;
    } else if (w === 'window' && tokens[i + 1] && word(i + 2) === 'as' && isPunct(i + 3, '(')) {
      i = rewriteSpec(tokens, i + 3, null, edits, notes);
      // WINDOW a AS (…), b AS (…)
      while (isPunct(i + 1, ',') && tokens[i + 2] && word(i + 3) === 'as' && isPunct(i + 4, '('))
        i = rewriteSpec(tokens, i + 4, null, edits, notes);
    }
  }
  return { edits, notes };
}

/** Rewrites the specification whose `(` is tokens[open]; returns the index of its `)`. */
function rewriteSpec(
  tokens: readonly Token[],
  open: number,
  fn: string | null,
  edits: SqlEdit[],
  notes: WindowSpecNote[],
): number {
  const match = matchingParen(tokens, open);
  // Unbalanced: the specification runs to the end of the text.
  const close = match < 0 ? tokens.length : match;
  let base: string | null = null;
  const first = tokens[open + 1];
  if (
    first &&
    open + 1 < close &&
    (first.kind === 'quoted' || (first.kind === 'word' && !SPEC_KEYWORDS.has(first.text.toLowerCase())))
  ) {
    base = identifier(first);
    edits.push({ start: first.start, end: first.end, text: '' });
  }
  let frameAt = close;
  let partitionAt = -1;
  let orderAt = close;
  for (let j = open + 1, depth = 0; j < close; j++) {
    const t = tokens[j]!;
    const w = t.kind === 'word' && depth === 0 ? t.text.toLowerCase() : null;
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    else if (w === 'partition' && partitionAt < 0) partitionAt = j;
    else if (w === 'order' && orderAt === close) orderAt = j;
    else if (w === 'rows' || w === 'range' || w === 'groups') {
      frameAt = j;
      break;
    }
  }
  const partitionBy = partitionAt >= 0 ? cutPartitionBy(tokens, partitionAt, Math.min(orderAt, frameAt), edits) : null;
  const frame = frameAt < close ? parseFrame(tokens.slice(frameAt, close), tokens[close]) : null;
  const from = frameAt < close ? tokens[frameAt]!.start : (tokens[close]?.start ?? tokens[close - 1]!.end);
  const to = tokens[close]?.start ?? from;
  edits.push({ start: from, end: to, text: ` ROWS ${notes.length} PRECEDING` });
  notes.push({ base, bare: false, fn, partitionBy, frame });
  return close;
}

/** Removes `PARTITION BY <list>` (tokens [at, end)) from the text and returns the list. */
function cutPartitionBy(tokens: readonly Token[], at: number, end: number, edits: SqlEdit[]): OffsetText {
  const by = tokens[at + 1];
  if (by?.kind !== 'word' || by.text.toLowerCase() !== 'by' || at + 2 >= end)
    throw new RewriteSyntaxError(tokens[at + 1]?.start ?? tokens[at]!.end, tokens[at + 1]?.text ?? null);
  edits.push({ start: tokens[at]!.start, end: tokens[end - 1]!.end, text: '' });
  return { text: tokenText(tokens, at + 2, end), at: tokens[at + 2]!.start };
}

function identifier(t: Token): string {
  return t.kind === 'quoted' ? t.text.slice(1, -1).replaceAll('""', '"') : t.text.toLowerCase();
}

/** `ROWS|RANGE|GROUPS {bound | BETWEEN bound AND bound} [EXCLUDE …]`; `after` is the closing `)`. */
function parseFrame(tokens: readonly Token[], after: Token | undefined): FrameNote {
  let i = 1;
  const fail = (): never => {
    const t = tokens[i] ?? after;
    throw new RewriteSyntaxError(t?.start ?? tokens[tokens.length - 1]!.end, t ? t.text : null);
  };
  const kw = (k: string) => tokens[i]?.kind === 'word' && tokens[i]!.text.toLowerCase() === k;
  const expect = (k: string) => (kw(k) ? i++ : fail());
  const bound = (): FrameBoundNote => {
    if (kw('unbounded')) {
      i++;
      if (kw('preceding') || kw('following')) {
        const dir = tokens[i++]!.text.toLowerCase();
        return { kind: `unbounded_${dir}` as FrameBoundKind, offset: null };
      }
      return fail();
    }
    if (kw('current')) {
      i++;
      expect('row');
      return { kind: 'current_row', offset: null };
    }
    const from = i;
    while (i < tokens.length && !kw('preceding') && !kw('following') && !kw('and')) i++;
    if (i === from) return fail();
    if (!(kw('preceding') || kw('following'))) {
      // `1 FOLLOWWING`: blame the word that should have been PRECEDING or FOLLOWING.
      if (i - from > 1) i--;
      return fail();
    }
    const first = tokens[from]!;
    const offset = { text: tokenText(tokens, from, i), at: first.start };
    return { kind: tokens[i++]!.text.toLowerCase() as FrameBoundKind, offset };
  };
  const units = tokens[0]!.text.toLowerCase() as FrameUnits;
  let start: FrameBoundNote;
  let end: FrameBoundNote = { kind: 'current_row', offset: null };
  if (kw('between')) {
    i++;
    start = bound();
    expect('and');
    end = bound();
  } else start = bound();
  let exclude: FrameExclusion = 'no_others';
  if (kw('exclude')) {
    i++;
    if (kw('current')) {
      i++;
      expect('row');
      exclude = 'current_row';
    } else if (kw('group') || kw('ties')) exclude = tokens[i++]!.text.toLowerCase() as FrameExclusion;
    else if (kw('no')) {
      i++;
      expect('others');
    } else fail();
  }
  if (i < tokens.length) fail();
  return { units, start, end, exclude };
}

function tokenText(tokens: readonly Token[], from: number, to: number): string {
  let s = '';
  for (let j = from; j < to; j++) s += (j > from && tokens[j]!.start > tokens[j - 1]!.end ? ' ' : '') + tokens[j]!.text;
  return s;
}
