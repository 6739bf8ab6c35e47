// `f(x) FILTER (WHERE c) OVER w`: the parser takes FILTER only on plain aggregates, so the condition is moved.
import type { Ast } from '../parse.js';
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

const MARKER = '__floe_window_filter';

/**
 * Text: `f(x) FILTER (WHERE c) OVER w` -> `__floe_window_filter(f(x)  OVER w, c)`: the FILTER clause is cut and
 * its condition copied (offsets kept) after the window specification, so the parser reads a plain window call.
 * AST: the marker call becomes the window call again, with the condition as `filter: {where}` (the shape plain
 * aggregates have), for the binder to check and apply.
 */
export const windowFilter: SqlRewrite = {
  name: 'window-filter',
  edit(all, sql) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    // A call inside a FILTER condition that is cut is left to the binder's error (window calls do not nest).
    const cut: [number, number][] = [];
    for (let i = 0; i + 1 < t.length; i++) {
      if (cut.some(([from, to]) => i > from && i < to)) continue;
      if (t[i]!.kind !== 'word' || t[i + 1]!.text !== '(' || t[i - 1]?.text === '.') continue;
      const close = matchingParen(t, i + 1);
      if (close < 0 || !isWord(t[close + 1], 'filter') || t[close + 2]?.text !== '(') continue;
      const filterClose = matchingParen(t, close + 2);
      if (filterClose < 0 || !isWord(t[close + 3], 'where') || !isWord(t[filterClose + 1], 'over')) continue;
      const specEnd = windowSpecEnd(t, filterClose + 2);
      if (specEnd === null || close + 4 >= filterClose) continue;
      const cond = t[close + 4]!.start;
      cut.push([close + 1, filterClose]);
      edits.push(
        { start: t[i]!.start, end: t[i]!.start, text: `${MARKER}(` },
        { start: t[close + 1]!.start, end: t[filterClose]!.end, text: '' },
        { start: specEnd, end: specEnd, text: ', ' },
        { start: specEnd, end: specEnd, text: sql.slice(cond, t[filterClose - 1]!.end), source: cond },
        { start: specEnd, end: specEnd, text: ')' },
      );
    }
    return edits;
  },
  fixNode(node) {
    if (node.type !== 'function' || node.name?.name?.length !== 1) return;
    if (String(node.name.name[0].value).toLowerCase() !== MARKER) return;
    const [call, where] = node.args.value as Ast[];
    for (const k of Object.keys(node)) delete node[k];
    Object.assign(node, call, { filter: { where } });
  },
};

/** The offset just past the window specification starting at token `at` (`(…)` or a window name). */
function windowSpecEnd(t: readonly Token[], at: number): number | null {
  const first = t[at];
  if (first?.text === '(') {
    const close = matchingParen(t, at);
    return close < 0 ? null : t[close]!.end;
  }
  return first?.kind === 'word' || first?.kind === 'quoted' ? first.end : null;
}
