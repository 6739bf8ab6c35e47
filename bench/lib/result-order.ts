// What a query's text says about the order of its rows: the output columns of its last ORDER BY, and whether a
// LIMIT or OFFSET cuts the ordered rows (rows tied on the keys at a cut may differ between correct engines).

/** How to compare a query's rows: `order` as `compareRows` takes it, `cut` as its LIMIT / OFFSET say. */
export interface ResultOrder {
  /** false: any order; true: the same order (keys unknown); column indexes: ordered by those columns. */
  readonly order: boolean | readonly number[];
  readonly cut: RowsCut;
}

/** Whether the outer query ends in a LIMIT (rows past it dropped) and an OFFSET (rows before it dropped). */
export interface RowsCut {
  readonly limit: boolean;
  readonly offset: boolean;
}

/**
 * The comparison of `sql`'s rows: with no ORDER BY, any order (any rows of the right count under a LIMIT, as
 * every row ties); with one, its keys among the output columns `names` (true when an item is not one).
 */
export function resultOrder(sql: string, names: readonly string[]): ResultOrder {
  const tail = sql.replace(/[;\s]+$/, '');
  const cut = {
    limit: /\blimit\s+\d+(\s+offset\s+\d+)?$/i.test(tail),
    offset: /\boffset\s+\d+(\s+rows?)?(\s+limit\s+\d+)?$/i.test(tail),
  };
  if (!/\border\s+by\b/i.test(sql)) return { order: cut.limit || cut.offset ? [] : false, cut };
  return { order: orderColumns(sql, names) ?? true, cut };
}

/**
 * The output columns of a query's last ORDER BY, as indexes into `names`: an item matches a column by name (quoted
 * or not, case-insensitively), by position, or by the text of a select-list expression (`ORDER BY COUNT(*)` for
 * the column `COUNT(*)` makes); null when it has none, or an item matches no output column.
 */
export function orderColumns(sql: string, names: readonly string[]): number[] | null {
  const at = [...sql.matchAll(/\border\s+by\s+/gi)].at(-1);
  if (at === undefined) return null;
  const last = clauseAt(sql.slice(at.index + at[0].length));
  const lower = names.map((n) => n.toLowerCase());
  const items = selectItems(sql);
  const out: number[] = [];
  for (const item of splitTopLevel(last)) {
    const text = item
      .trim()
      .replace(/\s+nulls\s+(first|last)$/i, '')
      .replace(/\s+(asc|desc)$/i, '')
      .trim();
    const name = text
      .replace(/^\w+\./, '')
      .replaceAll('"', '')
      .toLowerCase();
    let index = /^\d+$/.test(name) ? Number(name) - 1 : lower.indexOf(name);
    if (index < 0 && items.length === names.length) index = items.indexOf(normalize(text));
    if (index < 0 || index >= names.length) return null;
    out.push(index);
  }
  return out;
}

/** The ORDER BY list at the start of `text`: up to a closing parenthesis, `;`, LIMIT or OFFSET outside parentheses. */
function clauseAt(text: string): string {
  const body = text.replace(/;[\s\S]*$/, '');
  const end = topLevelIndexOf(body, /^(limit|offset)\b/i);
  return end < 0 ? body : body.slice(0, end);
}

/** The outer query's select-list expressions (aliases dropped), normalised; empty when it cannot tell. */
function selectItems(sql: string): string[] {
  const m = /^\s*(?:with\b[\s\S]*?\)\s*)?select\s+(?:distinct\s+)?/i.exec(sql);
  if (!m) return [];
  const rest = sql.slice(m[0].length);
  const from = topLevelIndexOf(rest, /^from\b/i);
  if (from < 0) return [];
  return splitTopLevel(rest.slice(0, from)).map((item) => normalize(item.replace(/\s+as\s+("[^"]*"|\w+)\s*$/i, '')));
}

const normalize = (expr: string) => expr.replace(/\s+/g, '').replaceAll('"', '').toLowerCase();

/** `text` split at the commas outside parentheses and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * Where `pattern` (anchored, tested on the next 7 characters) first matches `text` at a word start outside
 * parentheses and quotes, or where a parenthesis closes that `text` did not open; -1 when neither happens.
 */
function topLevelIndexOf(text: string, pattern: RegExp): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      if (--depth < 0) return i;
    } else if (depth === 0 && !/\w/.test(text[i - 1] ?? ' ') && pattern.test(text.slice(i, i + 7))) return i;
  }
  return -1;
}
