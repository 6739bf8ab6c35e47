// String functions: lower, upper, length, substring, trim family, concat, replace, position.

import { makeColumn } from '../../arrow/column.js';
import { cellText } from '../../arrow/format.js';
import { ExecError } from '../../errors.js';
import { type DataType, INT32, isInteger, typeName, UTF8 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import { INT32_OUT, mapRows, numberArg, stringArg, UTF8_OUT } from './helpers.js';
import { regexSubstring } from './regexp.js';
import { lengthBytes, substringBytes, withBytePath } from './string-bytes.js';
import { lowerChar, upperChar } from './string-parts.js';

function textFn(name: string, f: (s: string) => string): ScalarFunction {
  return {
    name,
    signature: (a) => (a.length === 1 ? { args: [UTF8], returns: UTF8 } : `${name}() takes one argument`),
    evaluate: ([s], n) => {
      const v = stringArg(s!);
      return mapRows([s!], n, UTF8, (i) => f(v[i]!), UTF8_OUT);
    },
  };
}

/** Characters (code points), as PostgreSQL counts them. */
function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const length: ScalarFunction = withBytePath(
  {
    name: 'length',
    signature: (a) => (a.length === 1 ? { args: [UTF8], returns: INT32 } : 'length() takes one argument'),
    evaluate: ([s], n) => {
      const v = stringArg(s!);
      return mapRows([s!], n, INT32, (i) => charLength(v[i]!), INT32_OUT);
    },
  },
  lengthBytes,
);

/** substring(s, start [, count]) with PostgreSQL's 1-based start that may be < 1; substring(s, pattern) matches. */
const substring: ScalarFunction = withBytePath(
  {
    name: 'substring',
    signature: (a, constants) => {
      if (a.length === 2 && a[1]!.id === 'utf8') return regexSubstring.signature(a, constants);
      return (a.length === 2 || a.length === 3) && a.slice(1).every((t) => isInteger(t) || t.id === 'null')
        ? { args: a.length === 2 ? [UTF8, INT32] : [UTF8, INT32, INT32], returns: UTF8 }
        : `substring(text, integer [, integer]) does not accept (${a.map(typeName).join(', ')})`;
    },
    evaluate: (args, n, returns) => {
      if (args.length === 2 && args[1]!.type.id === 'utf8') return regexSubstring.evaluate(args, n, returns);
      const s = stringArg(args[0]!);
      const start = numberArg(args[1]!);
      const count = args[2] ? numberArg(args[2]) : null;
      return mapRows(args, n, UTF8, (i) => substr(s[i]!, start[i]!, count ? count[i]! : null), UTF8_OUT);
    },
  },
  (args, n) => (args.length === 2 && args[1]!.type.id === 'utf8' ? null : substringBytes(args, n)),
);

function substr(s: string, start: number, count: number | null): string {
  if (count !== null && count < 0) throw new ExecError('negative substring length not allowed');
  const chars = isAscii(s) ? null : Array.from(s);
  const from = Math.max(start, 1) - 1;
  const to = count === null ? Number.POSITIVE_INFINITY : start - 1 + count;
  if (to <= from) return '';
  return chars ? chars.slice(from, to).join('') : s.slice(from, to);
}

function trimFn(name: string, mode: 'both' | 'leading' | 'trailing'): ScalarFunction {
  return {
    name,
    signature: (a) =>
      a.length === 1 || a.length === 2
        ? { args: a.map(() => UTF8), returns: UTF8 }
        : `${name}() takes one or two arguments`,
    evaluate: (args, n) => {
      const s = stringArg(args[0]!);
      const chars = args[1] ? stringArg(args[1]) : null;
      return mapRows(args, n, UTF8, (i) => trimChars(s[i]!, chars ? chars[i]! : ' ', mode), UTF8_OUT);
    },
  };
}

export function trimChars(s: string, chars: string, mode: 'both' | 'leading' | 'trailing'): string {
  let a = 0;
  let b = s.length;
  if (mode !== 'trailing') while (a < b && chars.includes(s[a]!)) a++;
  if (mode !== 'leading') while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

/** concat(a, b, ...) skips NULLs (PostgreSQL), unlike `||`. */
const concat: ScalarFunction = {
  name: 'concat',
  strict: false,
  signature: (a) => (a.length > 0 ? { args: a, returns: UTF8 } : 'concat() needs at least one argument'),
  evaluate: (args, n) => {
    const out = new Array<string>(n);
    // PostgreSQL's concat uses each type's output function: booleans print as t / f.
    const text = (c: (typeof args)[number], i: number) => {
      const t = cellText(c, i) ?? '';
      return c.type.id === 'bool' ? t.slice(0, 1) : t;
    };
    for (let i = 0; i < n; i++) out[i] = args.map((c) => text(c, i)).join('');
    return makeColumn(UTF8, out, null, n);
  },
};

const replace: ScalarFunction = {
  name: 'replace',
  signature: (a) => (a.length === 3 ? { args: [UTF8, UTF8, UTF8], returns: UTF8 } : 'replace() takes three arguments'),
  evaluate: (args, n) => {
    const [s, from, to] = args.map(stringArg) as [string[], string[], string[]];
    return mapRows(args, n, UTF8, (i) => (from[i] === '' ? s[i]! : s[i]!.replaceAll(from[i]!, to[i]!)), UTF8_OUT);
  },
};

/** strpos(s, sub): 1-based character position of `sub` in `s`, 0 when absent. */
const strpos: ScalarFunction = {
  name: 'strpos',
  signature: (a) => (a.length === 2 ? { args: [UTF8, UTF8], returns: INT32 } : 'strpos() takes two arguments'),
  evaluate: (args, n) => {
    const [s, sub] = args.map(stringArg) as [string[], string[]];
    return mapRows(
      args,
      n,
      INT32,
      (i) => {
        const at = s[i]!.indexOf(sub[i]!);
        return at < 0 ? 0 : charLength(s[i]!.slice(0, at)) + 1;
      },
      INT32_OUT,
    );
  },
};

const concatOp: ScalarFunction = {
  name: 'textcat',
  signature: (a) => ({ args: a.map((): DataType => UTF8), returns: UTF8 }),
  evaluate: (args, n) => {
    const [x, y] = args.map(stringArg) as [string[], string[]];
    return mapRows(args, n, UTF8, (i) => x[i]! + y[i]!, UTF8_OUT);
  },
};

export const STRING_FUNCTIONS: readonly ScalarFunction[] = [
  textFn('lower', (s) => (isAscii(s) ? s.toLowerCase() : Array.from(s, lowerChar).join(''))),
  textFn('upper', (s) => (isAscii(s) ? s.toUpperCase() : Array.from(s, upperChar).join(''))),
  length,
  { ...length, name: 'char_length' },
  { ...length, name: 'character_length' },
  substring,
  { ...substring, name: 'substr' },
  trimFn('trim', 'both'),
  trimFn('btrim', 'both'),
  trimFn('ltrim', 'leading'),
  trimFn('rtrim', 'trailing'),
  concat,
  concatOp,
  replace,
  strpos,
];

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}
