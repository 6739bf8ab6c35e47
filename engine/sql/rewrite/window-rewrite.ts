// Window-specification rewrites (applied per query arm by parse.ts) and the AST fix-ups that undo them.
import type { Ast } from '../parse.js';
import { applyEdits } from './edit.js';
import { significant, tokenize } from './tokenize.js';
import { moveWindowClauses } from './window-clause.js';
import { type FrameBoundNote, rewriteWindowSpecs, type WindowSpecNote } from './window-specs.js';

export { RewriteSyntaxError } from './window-specs.js';

export interface Rewritten {
  /** The text handed to the parser. */
  readonly text: string;
  /** Maps an offset of `text` back to the original SQL (for syntax-error positions). */
  toOriginal(offset: number): number;
  /** Restores in the parsed AST what the rewrites took out of the text. */
  /** `parseExprs` parses an expression list cut out of the original text at offset `at`. */
  finish(ast: Ast, parseExprs: (text: string, at: number) => Ast[]): Ast;
}

export function rewriteWindowSql(sql: string): Rewritten {
  const moved = applyEdits(sql, moveWindowClauses(sql, significant(tokenize(sql))));
  const { edits, notes } = rewriteWindowSpecs(significant(tokenize(moved.sql)));
  const specs = applyEdits(moved.sql, edits);
  return {
    text: specs.sql,
    toOriginal: (offset) => moved.toOriginal(specs.toOriginal(offset)),
    finish: (ast, parseExprs) => attachWindowNotes(ast, notes, (text, at) => parseExprs(text, moved.toOriginal(at))),
  };
}

/** The window note resolved for the binder: offsets parsed to expression ASTs. */
export interface WindowSpecAst {
  readonly base: string | null;
  readonly bare: boolean;
  readonly partitionBy: readonly Ast[] | null;
  readonly frame: {
    readonly units: string;
    readonly start: { readonly kind: string; readonly offset: Ast | null };
    readonly end: { readonly kind: string; readonly offset: Ast | null };
    readonly exclude: string;
  } | null;
}

const MARKER_RE = /^(\d+) PRECEDING$/;

/**
 * Replaces each marker frame (`ROWS <k> PRECEDING`) in a window specification by note k, stored as the
 * specification's `floe` field (its `window_frame_clause` becomes null), and restores renamed functions.
 */
function attachWindowNotes(
  ast: Ast,
  notes: readonly WindowSpecNote[],
  parseExprs: (t: string, at: number) => Ast[],
): Ast {
  if (notes.length === 0) return ast;
  const bound = (b: FrameBoundNote) => ({
    kind: b.kind,
    offset: b.offset ? parseExprs(b.offset.text, b.offset.at)[0] : null,
  });
  const noteOf = (spec: Ast): WindowSpecNote | null => {
    const m =
      spec?.window_frame_clause?.type === 'rows' ? MARKER_RE.exec(String(spec.window_frame_clause.expr?.value)) : null;
    return m ? notes[Number(m[1])]! : null;
  };
  const visit = (node: Ast): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const x of node) visit(x);
      return;
    }
    const fn = noteOf(node.over?.as_window_specification?.window_specification)?.fn;
    if (fn) node.name = fn;
    const note = 'window_frame_clause' in node ? noteOf(node) : null;
    if (note) {
      const f = note.frame;
      const frame = f ? { units: f.units, start: bound(f.start), end: bound(f.end), exclude: f.exclude } : null;
      node.window_frame_clause = null;
      const partitionBy = note.partitionBy ? parseExprs(note.partitionBy.text, note.partitionBy.at) : null;
      node.floe = { base: note.base, bare: note.bare, partitionBy, frame } satisfies WindowSpecAst;
    }
    for (const v of Object.values(node)) visit(v);
  };
  visit(ast);
  return ast;
}
