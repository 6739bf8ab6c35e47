// `a JOIN b ON x, c` -> `a JOIN b ON x CROSS JOIN c`: the parser folds the comma into the ON condition (or fails).
// A comma at the ON's own parenthesis depth can only start the next FROM item.
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { significant } from './tokenize.js';

/** Words that end an ON condition. */
const ENDS_ON = new Set(
  'where group having order limit offset union intersect except window join inner left right full cross natural using fetch'.split(
    ' ',
  ),
);

export const commaAfterOn: SqlRewrite = {
  name: 'comma-after-on',
  edit(all) {
    const edits: SqlEdit[] = [];
    const inOn = new Set<number>();
    let previous: string | null = null;
    for (const tok of significant(all)) {
      const word = tok.kind === 'word' ? tok.text.toLowerCase() : null;
      const after = previous;
      previous = word;
      // DISTINCT ON (…) is not a join condition.
      if (word === 'on' && after !== 'distinct') inOn.add(tok.depth);
      else if (word !== null && ENDS_ON.has(word)) inOn.delete(tok.depth);
      else if (tok.text === ')') {
        for (const d of inOn) if (d > tok.depth) inOn.delete(d);
      } else if (tok.text === ',' && inOn.has(tok.depth)) {
        edits.push({ start: tok.start, end: tok.end, text: ' CROSS JOIN ' });
        inOn.delete(tok.depth);
      }
    }
    return edits;
  },
};
