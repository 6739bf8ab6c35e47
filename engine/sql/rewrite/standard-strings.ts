// A backslash in a standard string literal ('a\b') is a plain character, as PostgreSQL reads it
// (standard_conforming_strings): the parser took it for an escape ('a\b' held a backspace; 'x\' did not parse).
import type { Ast } from '../parse.js';
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { significant } from './tokenize.js';

/** A private-use character stands in for each backslash while the parser reads the literal. */
const BACKSLASH_STANDIN = '\uE000';

/**
 * Only `'…'` and `N'…'` literals change; `E'…'` keeps its escapes. A literal that itself holds U+E000 would come
 * back with a backslash there: that private-use character has no meaning in SQL text.
 */
export const standardStrings: SqlRewrite = {
  name: 'standard-strings',
  edit(all) {
    const edits: SqlEdit[] = [];
    for (const t of significant(all)) {
      if (t.kind !== 'string' || !t.text.includes('\\') || !/^[Nn]?'/.test(t.text)) continue;
      edits.push({ start: t.start, end: t.end, text: t.text.replaceAll('\\', BACKSLASH_STANDIN) });
    }
    return edits;
  },
  fixNode(node: Ast) {
    if (typeof node.value === 'string' && node.value.includes(BACKSLASH_STANDIN))
      node.value = node.value.replaceAll(BACKSLASH_STANDIN, '\\');
  },
};
