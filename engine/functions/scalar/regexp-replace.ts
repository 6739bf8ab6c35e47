// regexp_replace(s, pattern, replacement [, flags]): PostgreSQL's replacement syntax, compiled once per pattern.
import type { Column } from '../../arrow/column.js';
import { UTF8 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import { mapRows, stringArg, UTF8_OUT } from './helpers.js';

/** Literal text and group references (0: the whole match) of a replacement, in order. */
type Template = readonly (string | number)[];

/**
 * PostgreSQL's replacement text: `\1`…`\9` insert a group (empty when the pattern has no such group or it did not
 * take part), `\&` the match, `\\` one backslash; any other backslash is copied as is (`\0`, `\x`, a last `\`),
 * and `$` is plain text.
 */
export function compileReplacement(r: string): Template {
  const parts: (string | number)[] = [];
  let text = '';
  for (let i = 0; i < r.length; i++) {
    const c = r[i]!;
    const next = r[i + 1];
    if (c !== '\\' || next === undefined) text += c;
    else if (next === '\\') [text, i] = [`${text}\\`, i + 1];
    else if (next === '&' || (next >= '1' && next <= '9')) {
      if (text !== '') parts.push(text);
      parts.push(next === '&' ? 0 : Number(next));
      [text, i] = ['', i + 1];
    } else text += c;
  }
  if (text !== '') parts.push(text);
  return parts;
}

function expand(t: Template, m: RegExpExecArray): string {
  if (t.length === 1 && typeof t[0] === 'string') return t[0];
  let out = '';
  for (const p of t) out += typeof p === 'string' ? p : (m[p] ?? '');
  return out;
}

/**
 * The first match replaced (exec and slices: String.prototype.replace with a `u` pattern and a `$1` string was
 * 6x slower on 1 M URLs), or every match when `re` is global.
 */
export function replaceMatches(s: string, re: RegExp, t: Template): string {
  if (re.global) return replaceAll(s, re, t);
  const m = re.exec(s);
  if (m === null) return s;
  return s.slice(0, m.index) + expand(t, m) + s.slice(m.index + m[0].length);
}

/** Every match, left to right; an empty match moves on by one character (a code point under `u`), as replace does. */
function replaceAll(s: string, re: RegExp, t: Template): string {
  re.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    out += s.slice(last, m.index) + expand(t, m);
    last = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex = last + (re.unicode && isPair(s, last) ? 2 : 1);
  }
  return out + s.slice(last);
}

const isPair = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
};

/**
 * Compiles pattern and replacement again only when a row's differ from the previous row's (a literal pattern is
 * the same string on every row: one compile per batch instead of a cache lookup and a rewrite per row).
 */
export function makeRegexpReplace(compile: (pattern: string, flags?: string) => RegExp): ScalarFunction['evaluate'] {
  return (args: readonly Column[], n: number) => {
    const [s, p, r, f] = args.map(stringArg);
    let pattern: string | null = null;
    let flags: string | undefined;
    let re: RegExp | null = null;
    let text: string | null = null;
    let template: Template = [];
    return mapRows(
      args,
      n,
      UTF8,
      (i) => {
        if (p![i] !== pattern || f?.[i] !== flags) [pattern, flags, re] = [p![i]!, f?.[i], compile(p![i]!, f?.[i])];
        if (r![i] !== text) [text, template] = [r![i]!, compileReplacement(r![i]!)];
        return replaceMatches(s![i]!, re!, template);
      },
      UTF8_OUT,
    );
  };
}
