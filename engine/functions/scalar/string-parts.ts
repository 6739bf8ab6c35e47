// More string functions, by characters (code points) as PostgreSQL counts them: left, right, lpad, rpad,
// split_part, starts_with, reverse, repeat, initcap, translate, concat_ws, ascii, chr, md5, octet_length, position.
import { createHash } from 'node:crypto';
import { type Column, makeColumn } from '../../arrow/column.js';
import { cellText } from '../../arrow/format.js';
import { checkTextLength, ExecError } from '../../errors.js';
import { BOOL, type DataType, INT32, isInteger, typeName, UTF8 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import { BOOL_OUT, INT32_OUT, mapRows, numberArg, stringArg, UTF8_OUT } from './helpers.js';
import { octetLengthBytes, startsWithBytes, withBytePath } from './string-bytes.js';

type Arg = 'text' | 'int';

/** A strict function of text and integer arguments; `optional` trailing arguments may be left out. */
function fn<T>(
  name: string,
  params: readonly Arg[],
  returns: DataType,
  f: (...args: (string | number)[]) => T,
  optional = 0,
): ScalarFunction {
  const out = returns.id === 'utf8' ? UTF8_OUT : returns.id === 'bool' ? BOOL_OUT : INT32_OUT;
  return {
    name,
    signature: (a) => {
      const ok =
        a.length <= params.length &&
        a.length >= params.length - optional &&
        a.every((t, i) => t.id === 'null' || (params[i] === 'int' ? isInteger(t) : t.id === 'utf8'));
      return ok
        ? { args: a.map((_, i) => (params[i] === 'int' ? INT32 : UTF8)), returns }
        : `function ${name}(${a.map(typeName).join(', ')}) does not exist`;
    },
    evaluate: (args, n) => {
      const cols = args.map((c, i) => (params[i] === 'int' ? numberArg(c) : stringArg(c)));
      const g = (i: number): unknown => f(...cols.map((c) => c[i]!));
      return mapRows<unknown>(args, n, returns, returns.id === 'bool' ? (i) => (g(i) ? 1 : 0) : g, out as never);
    },
  };
}

const chars = (s: string): string[] => Array.from(s);

function left(s: string, k: number): string {
  const c = chars(s);
  return c.slice(0, k < 0 ? Math.max(c.length + k, 0) : k).join('');
}

function right(s: string, k: number): string {
  const c = chars(s);
  return c.slice(k < 0 ? Math.min(-k, c.length) : Math.max(c.length - k, 0)).join('');
}

function pad(s: string, len: number, fill: string, atStart: boolean, name: string): string {
  const c = chars(s);
  if (len <= c.length) return c.slice(0, Math.max(len, 0)).join('');
  const f = chars(fill);
  if (f.length === 0) return s;
  const n = len - c.length;
  // Whole copies of the fill, then the first characters of one more (the fill may hold surrogate pairs).
  const whole = Math.floor(n / f.length);
  const rest = f.slice(0, n - whole * f.length).join('');
  checkTextLength(s.length + whole * fill.length + rest.length, `${name}()`);
  const padding = fill.repeat(whole) + rest;
  return atStart ? padding + s : s + padding;
}

function splitPart(s: string, delim: string, field: number): string {
  if (field === 0) throw new ExecError('field position must not be zero');
  const parts = delim === '' ? [s] : s.split(delim);
  const at = field > 0 ? field - 1 : parts.length + field;
  return parts[at] ?? '';
}

/** Words are runs of letters and digits; their first letter goes upper case, the rest lower. */
function initcap(s: string): string {
  let out = '';
  let inWord = false;
  for (const ch of s) {
    const alnum = /[\p{L}\p{N}]/u.test(ch);
    out += alnum ? (inWord ? lowerChar(ch) : upperChar(ch)) : ch;
    inWord = alnum;
  }
  return out;
}

/**
 * Case mapping per character, as PostgreSQL's towupper/towlower: a character whose mapping is several
 * characters keeps its first when the rest are combining marks (İ -> i), and stays as it is otherwise (ß).
 */
export function upperChar(ch: string): string {
  return singleChar(ch, ch.toUpperCase());
}

export function lowerChar(ch: string): string {
  return singleChar(ch, ch.toLowerCase());
}

function singleChar(ch: string, mapped: string): string {
  const [first, ...rest] = Array.from(mapped);
  if (rest.length === 0) return mapped;
  return rest.every((c) => /\p{M}/u.test(c)) ? first! : ch;
}

function translate(s: string, from: string, to: string): string {
  const f = chars(from);
  // Only the first |from| characters of `to` are ever used: splitting all of a long one for every row made
  // translate(col, 'a', <10,000 characters>) take seconds (found by the fuzzer).
  const t = chars(to.slice(0, 2 * f.length));
  // Unchanged runs are copied whole, and a value with nothing to translate is returned as it is: appending one
  // character at a time made translate('<10,000 characters>', 'a b', col) over 6,000 rows take 12-25 s.
  let out = '';
  let run = 0;
  let i = 0;
  for (const ch of s) {
    const at = f.indexOf(ch);
    if (at >= 0) {
      out += s.slice(run, i) + (t[at] ?? '');
      run = i + ch.length;
    }
    i += ch.length;
  }
  return run === 0 ? s : out + s.slice(run);
}

function repeat(s: string, k: number): string {
  if (k <= 0) return '';
  checkTextLength(s.length * k, 'repeat()');
  return s.repeat(k);
}

function chr(code: number): string {
  if (code === 0) throw new ExecError('null character not permitted');
  if (code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
    throw new ExecError(`requested character not compatible with encoding: ${code}`);
  return String.fromCodePoint(code);
}

/** position(s, sub): what `position(sub IN s)` becomes (rewrite/position-in.ts); 1-based, 0 when absent. */
function position(s: string, sub: string): number {
  const at = s.indexOf(sub);
  return at < 0 ? 0 : chars(s.slice(0, at)).length + 1;
}

/** concat_ws(sep, a, b, …): NULL arguments are skipped; a NULL separator gives NULL. */
const concatWs: ScalarFunction = {
  name: 'concat_ws',
  strict: false,
  signature: (a) =>
    a.length >= 1 && (a[0]!.id === 'utf8' || a[0]!.id === 'null')
      ? { args: [UTF8, ...a.slice(1)], returns: UTF8 }
      : `function concat_ws(${a.map(typeName).join(', ')}) does not exist`,
  evaluate: ([sep, ...rest], n) => {
    const out = new Array<string>(n).fill('');
    const valid = new Uint8Array(n);
    const seps = stringArg(sep!);
    for (let i = 0; i < n; i++) {
      if (sep!.type.id === 'null' || (sep!.valid !== null && sep!.valid[i] === 0)) continue;
      valid[i] = 1;
      out[i] = rest
        .map((c: Column) => text(c, i))
        .filter((t): t is string => t !== null)
        .join(seps[i]);
    }
    return makeColumn(UTF8, out, valid, n);
  },
};

/** A value's text as PostgreSQL's output function writes it (booleans as t / f). */
function text(c: Column, i: number): string | null {
  const t = cellText(c, i);
  return t !== null && c.type.id === 'bool' ? t.slice(0, 1) : t;
}

const utf8 = new TextEncoder();

export const STRING_PART_FUNCTIONS: readonly ScalarFunction[] = [
  fn('left', ['text', 'int'], UTF8, (s, k) => left(s as string, k as number)),
  fn('right', ['text', 'int'], UTF8, (s, k) => right(s as string, k as number)),
  fn(
    'lpad',
    ['text', 'int', 'text'],
    UTF8,
    (s, k, f = ' ') => pad(s as string, k as number, f as string, true, 'lpad'),
    1,
  ),
  fn(
    'rpad',
    ['text', 'int', 'text'],
    UTF8,
    (s, k, f = ' ') => pad(s as string, k as number, f as string, false, 'rpad'),
    1,
  ),
  fn('split_part', ['text', 'text', 'int'], UTF8, (s, d, k) => splitPart(s as string, d as string, k as number)),
  withBytePath(
    fn('starts_with', ['text', 'text'], BOOL, (s, p) => (s as string).startsWith(p as string)),
    startsWithBytes,
  ),
  fn('reverse', ['text'], UTF8, (s) =>
    chars(s as string)
      .reverse()
      .join(''),
  ),
  fn('repeat', ['text', 'int'], UTF8, (s, k) => repeat(s as string, k as number)),
  fn('initcap', ['text'], UTF8, (s) => initcap(s as string)),
  fn('translate', ['text', 'text', 'text'], UTF8, (s, f, t) => translate(s as string, f as string, t as string)),
  fn('ascii', ['text'], INT32, (s) => (s as string).codePointAt(0) ?? 0),
  fn('chr', ['int'], UTF8, (k) => chr(k as number)),
  fn('md5', ['text'], UTF8, (s) =>
    createHash('md5')
      .update(s as string, 'utf8')
      .digest('hex'),
  ),
  withBytePath(
    fn('octet_length', ['text'], INT32, (s) => utf8.encode(s as string).length),
    octetLengthBytes,
  ),
  fn('position', ['text', 'text'], INT32, (s, sub) => position(s as string, sub as string)),
  concatWs,
];
