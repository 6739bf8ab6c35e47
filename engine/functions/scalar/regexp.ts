// POSIX regular expressions as PostgreSQL spells them: regexp_like (and the ~ operators), regexp_replace,
// regexp_count, regexp_substr, substring(s FROM pattern), and similar_to_escape for SIMILAR TO.
import { ExecError } from '../../errors.js';
import { BOOL, INT32, isInteger, typeName, UTF8 } from '../../plan/types.js';
import type { ScalarFunction } from '../function.js';
import { BOOL_OUT, INT32_OUT, mapRows, stringArg, UTF8_OUT } from './helpers.js';
import { makeRegexpReplace } from './regexp-replace.js';

/** POSIX bracket classes, as JavaScript class contents. */
const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

/** PostgreSQL ARE -> JavaScript: `[[:alpha:]]` classes and the `\m \M \y \Y` word anchors. */
function translatePattern(p: string): string {
  return p
    .replace(/\[:([a-z]+):\]/g, (m, name: string) => CLASSES[name] ?? m)
    .replace(/\\([mMyY])/g, (_, c: string) => ({ m: '\\b(?=\\w)', M: '\\b(?<=\\w)', y: '\\b', Y: '\\B' })[c]!);
}

const CACHE = new Map<string, RegExp>();
const CACHE_MAX = 256;

/** Compiles a PostgreSQL pattern with flags (i: case-insensitive, g: global; c, n, s ignored as defaults). */
export function compileRegex(pattern: string, flags = ''): RegExp {
  const key = `${flags}/${pattern}`;
  const hit = CACHE.get(key);
  if (hit) return hit;
  let js = 's';
  for (const f of flags) {
    if (f === 'i' || f === 'g') js += f;
    else if (f === 'n') js = js.replace('s', 'm');
    else if (f !== 'c' && f !== 's') throw new ExecError(`invalid regular expression option: "${f}"`);
  }
  let re: RegExp;
  try {
    re = new RegExp(translatePattern(pattern), `${js}u`);
  } catch {
    try {
      // Without the u flag, JavaScript accepts the looser escapes PostgreSQL allows (`\-`, `\_`).
      re = new RegExp(translatePattern(pattern), js);
    } catch (e) {
      throw new ExecError(`invalid regular expression: ${(e as Error).message}`);
    }
  }
  if (CACHE.size >= CACHE_MAX) CACHE.clear();
  CACHE.set(key, re);
  return re;
}

function textArgs(name: string, min: number, max: number, intAt: readonly number[] = []) {
  return (a: readonly { id: string }[]) =>
    a.length >= min &&
    a.length <= max &&
    a.every((t, i) => t.id === 'null' || (intAt.includes(i) ? isInteger(t as never) : t.id === 'utf8'))
      ? { args: a.map((_, i) => (intAt.includes(i) ? INT32 : UTF8)), returns: UTF8 }
      : `function ${name}(${a.map((t) => typeName(t as never)).join(', ')}) does not exist`;
}

const regexpLike: ScalarFunction = {
  name: 'regexp_like',
  signature: (a) => {
    const r = textArgs('regexp_like', 2, 3)(a);
    return typeof r === 'string' ? r : { ...r, returns: BOOL };
  },
  evaluate: (args, n) => {
    const [s, p, f] = args.map(stringArg);
    return mapRows(args, n, BOOL, (i) => (compileRegex(p![i]!, f?.[i]).test(s![i]!) ? 1 : 0), BOOL_OUT);
  },
};

/** regexp_replace(s, pattern, replacement [, flags]): the first match only, unless flags hold g. */
const regexpReplace: ScalarFunction = {
  name: 'regexp_replace',
  signature: textArgs('regexp_replace', 3, 4),
  evaluate: makeRegexpReplace(compileRegex),
};

const regexpCount: ScalarFunction = {
  name: 'regexp_count',
  signature: (a) => {
    const r = textArgs('regexp_count', 2, 2)(a);
    return typeof r === 'string' ? r : { ...r, returns: INT32 };
  },
  evaluate: (args, n) => {
    const [s, p] = args.map(stringArg);
    return mapRows(args, n, INT32, (i) => [...s![i]!.matchAll(compileRegex(p![i]!, 'g'))].length, INT32_OUT);
  },
};

/** The first match (with `group`, its first parenthesised group if the pattern has one), or NULL. */
function firstMatch(s: string, re: RegExp, group: boolean): string | null {
  const m = re.exec(s);
  if (m === null) return null;
  return group && m.length > 1 ? (m[1] ?? null) : m[0];
}

/**
 * substring(s FROM pattern) (the first parenthesised group, if any) and regexp_substr(s, pattern) (the
 * whole match): NULL when nothing matches.
 */
function matchFn(name: string, group: boolean): ScalarFunction {
  return {
    name,
    signature: textArgs(name, 2, 2),
    evaluate: (args, n) => {
      const [s, p] = args.map(stringArg);
      const out = new Array<string>(n).fill('');
      const valid = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        if (args.some((c) => c.type.id === 'null' || (c.valid !== null && c.valid[i] === 0))) continue;
        const m = firstMatch(s![i]!, compileRegex(p![i]!), group);
        if (m !== null) [out[i], valid[i]] = [m, 1];
      }
      return { type: UTF8, values: out, valid, length: n };
    },
  };
}

/** SIMILAR TO pattern -> anchored POSIX pattern: `%` is `.*`, `_` is `.`, the rest is regex syntax already. */
export function similarToRegex(pattern: string, escapeChar = '\\'): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (escapeChar !== '' && c === escapeChar && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      out += /[A-Za-z0-9]/.test(next) ? next : `\\${next}`;
    } else if (c === '%') out += '.*';
    else if (c === '_') out += '.';
    else if (c === '.' || c === '^' || c === '$') out += `\\${c}`;
    else out += c;
  }
  return `^(?:${out})$`;
}

const similarToEscape: ScalarFunction = {
  name: 'similar_to_escape',
  signature: textArgs('similar_to_escape', 1, 2),
  evaluate: (args, n) => {
    const [p, e] = args.map(stringArg);
    return mapRows(args, n, UTF8, (i) => similarToRegex(p![i]!, e?.[i]), UTF8_OUT);
  },
};

/** substring(s FROM pattern) / substring(s, pattern): the regular-expression form of substring. */
export const regexSubstring = matchFn('substring', true);

export const REGEXP_FUNCTIONS: readonly ScalarFunction[] = [
  regexpLike,
  regexpReplace,
  regexpCount,
  matchFn('regexp_substr', false),
  similarToEscape,
];
