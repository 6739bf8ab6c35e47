// `cleanSql`: the one SQL statement in a model's answer: fences, prose, JSON wrappers and extra statements removed.

/**
 * The first SELECT or WITH statement in `answer`, without its trailing `;`, or null when there is none.
 * Handles, in order: a JSON answer `{"sql": "..."}`; a fenced block (```sql … ```, the first one holding SQL);
 * leading prose ("Here is the query:") up to the first line that starts a query; several statements (split on
 * `;` outside quotes, `$$` bodies and comments, so `WHERE s = 'a;b'` stays whole); leading `--` comments. Does
 * not check the SQL: validation does (EXPLAIN).
 */
export function cleanSql(answer: string): string | null {
  const text = fromJson(answer.trim()) ?? answer;
  for (const candidate of [...fencedBlocks(text), text]) {
    const sql = firstQuery(candidate);
    if (sql !== null) return sql;
  }
  return null;
}

/** `{"sql": "..."}` (JSON mode, structured output), possibly fenced as ```json. */
function fromJson(text: string): string | null {
  const body = text.replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  if (!body.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(body) as { sql?: unknown; query?: unknown };
    const sql = parsed.sql ?? parsed.query;
    return typeof sql === 'string' ? sql : null;
  } catch {
    return null;
  }
}

/** The bodies of ``` fences, in order. */
function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  for (const m of text.matchAll(/```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/g)) blocks.push(m[1] ?? '');
  return blocks;
}

const QUERY_START = /^(?:select|with)\b/i;

/** The first statement of `text` that starts a query, after skipping prose lines and comments before it. */
function firstQuery(text: string): string | null {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => QUERY_START.test(stripComment(line).trim()));
  // No line starts a query: it may follow another statement on its line (`SET x = 1; SELECT 2`).
  const rest = at === -1 ? text : [stripComment(lines[at] ?? '').trimStart(), ...lines.slice(at + 1)].join('\n');
  for (const statement of splitStatements(rest)) {
    const sql = statement.trim();
    if (QUERY_START.test(sql)) return sql;
  }
  return null;
}

/** A line's leading `--` comment marker (Spice strips one: some models answer `-- SELECT ...`). */
function stripComment(line: string): string {
  return line.replace(/^\s*--\s*(?=(?:select|with)\b)/i, '');
}

/** Splits on `;` outside '…', "…", $tag$…$tag$, -- and /* *\/ comments. */
export function splitStatements(sql: string): string[] {
  const masked = maskLiterals(sql);
  const out: string[] = [];
  let from = 0;
  for (let at = masked.indexOf(';'); at !== -1; at = masked.indexOf(';', from)) {
    out.push(sql.slice(from, at));
    from = at + 1;
  }
  out.push(sql.slice(from));
  return out.filter((s) => s.trim() !== '');
}

/**
 * The write a query-looking statement hides, or null: `SELECT … INTO t` (a CREATE TABLE AS), `CREATE`, or a
 * data-modifying WITH entry (`AS (INSERT|UPDATE|DELETE|MERGE …`). INTO and CREATE are reserved words in
 * PostgreSQL, so outside quotes and comments they never name a column. EXPLAIN does not show these.
 */
export function hiddenWrite(sql: string): string | null {
  const masked = maskLiterals(sql);
  const m = /\b(into|create)\b|\(\s*(insert|update|delete|merge)\b/i.exec(masked);
  return m === null ? null : (m[1] ?? m[2] ?? '').toUpperCase();
}

/** `sql` with quoted text and comments blanked out (same length), so keywords and `;` are found only in code. */
function maskLiterals(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    let end = i;
    if (c === "'" || c === '"') end = skipQuoted(sql, i, c);
    else if (c === '-' && sql[i + 1] === '-') end = endOf(sql, '\n', i + 2);
    else if (c === '/' && sql[i + 1] === '*') end = endOf(sql, '*/', i + 2);
    else if (c === '$') end = skipDollar(sql, i);
    if (end > i + 1) {
      out += ' '.repeat(end - i);
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Past a quoted run starting at `i` (a doubled quote is an escaped one). */
function skipQuoted(sql: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < sql.length) {
    if (sql[j] === quote) {
      if (sql[j + 1] !== quote) return j + 1;
      j += 2;
    } else j++;
  }
  return j;
}

function endOf(sql: string, closing: string, from: number): number {
  const at = sql.indexOf(closing, from);
  return at === -1 ? sql.length : at + closing.length;
}

/** Past a `$tag$ … $tag$` body; a lone `$` (a parameter `$1`) is one character. */
function skipDollar(sql: string, i: number): number {
  const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))?.[0];
  if (tag === undefined) return i + 1;
  return endOf(sql, tag, i + tag.length);
}
