// LIKE / ILIKE: a constant pattern compiles once to a byte matcher (text held as UTF-8) and to a
// prefix/suffix/contains test or a RegExp (text held as strings).
import { type Column, makeColumn, strings, utf8BytesOf } from '../../arrow/column.js';
import { compileUtf8Like } from '../../arrow/kernels/utf8-like.js';
import { andValidity } from '../../arrow/kernels/validity.js';
import { ExecError } from '../../errors.js';
import type { LikeExpr } from '../../plan/expr/index.js';
import type { PhysicalExpr } from './physical-expr.js';

type Matcher = (s: string) => boolean;

/** Compiles a LIKE pattern (`%` any run, `_` one character, `\` escapes). */
export function likeMatcher(pattern: string, caseInsensitive: boolean, escapeChar = '\\'): Matcher {
  const p = caseInsensitive ? pattern.toLowerCase() : pattern;
  const fold = caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s;
  if (!pattern.includes('_') && (escapeChar === '' || !pattern.includes(escapeChar))) {
    const parts = p.split('%');
    if (parts.length === 1) return (s) => fold(s) === p;
    if (parts.length === 2 && parts[1] === '') return (s) => fold(s).startsWith(parts[0]!);
    if (parts.length === 2 && parts[0] === '') return (s) => fold(s).endsWith(parts[1]!);
    if (parts.length === 3 && parts[0] === '' && parts[2] === '') return (s) => fold(s).includes(parts[1]!);
  }
  // The 'i' flag folds case, so the pattern keeps its own spelling (an escape character may be a letter).
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (escapeChar !== '' && ch === escapeChar) {
      if (i + 1 >= pattern.length) throw new ExecError('LIKE pattern must not end with escape character');
      re += escapeRe(pattern[++i]!);
    } else if (ch === '%') re += '[\\s\\S]*';
    else if (ch === '_') re += '[\\s\\S]';
    else re += escapeRe(ch);
  }
  const rx = new RegExp(`^${re}$`, caseInsensitive ? 'iu' : 'u');
  return (s) => rx.test(s);
}

function escapeRe(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function compileLike(e: LikeExpr, expr: PhysicalExpr, pattern: PhysicalExpr): PhysicalExpr {
  const text = e.pattern.kind === 'literal' && typeof e.pattern.value === 'string' ? e.pattern.value : null;
  const fixed = text !== null ? likeMatcher(text, e.caseInsensitive, e.escape) : null;
  const onBytes = text !== null && fixed ? compileUtf8Like(text, e.caseInsensitive, e.escape, fixed) : null;
  return {
    evaluate(batch) {
      const x = expr.evaluate(batch);
      const n = x.length;
      const bytes = onBytes === null ? null : utf8BytesOf(x);
      if (bytes !== null) {
        const hits = onBytes!(bytes, n);
        if (e.negated) for (let i = 0; i < n; i++) hits[i] = 1 - hits[i]!;
        return makeColumn({ id: 'bool' }, hits, x.valid, n);
      }
      const p = pattern.evaluate(batch);
      const s = strings(x);
      const ps = fixed ? null : strings(p);
      const valid = andValidity([x, p], n);
      const out = new Uint8Array(n);
      const yes = e.negated ? 0 : 1;
      for (let i = 0; i < n; i++) {
        if (valid !== null && valid[i] === 0) continue;
        const m = fixed ?? likeMatcher(ps![i]!, e.caseInsensitive, e.escape);
        out[i] = m(s[i]!) ? yes : 1 - yes;
      }
      return makeColumn({ id: 'bool' }, out, valid, n) as Column;
    },
  };
}
