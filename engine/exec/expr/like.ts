// LIKE / ILIKE: a constant pattern compiles once to a prefix/suffix/contains test or a RegExp.
import { type Column, makeColumn, strings } from '../../arrow/column.js';
import { andValidity } from '../../arrow/kernels/validity.js';
import { ExecError } from '../../errors.js';
import type { LikeExpr } from '../../plan/expr/index.js';
import type { PhysicalExpr } from './physical-expr.js';

type Matcher = (s: string) => boolean;

/** Compiles a LIKE pattern (`%` any run, `_` one character, `\` escapes). */
export function likeMatcher(pattern: string, caseInsensitive: boolean, escapeChar = '\\'): Matcher {
  const p = caseInsensitive ? pattern.toLowerCase() : pattern;
  const fold = caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s;
  if (!p.includes('_') && (escapeChar === '' || !p.includes(escapeChar))) {
    const parts = p.split('%');
    if (parts.length === 1) return (s) => fold(s) === p;
    if (parts.length === 2 && parts[1] === '') return (s) => fold(s).startsWith(parts[0]!);
    if (parts.length === 2 && parts[0] === '') return (s) => fold(s).endsWith(parts[1]!);
    if (parts.length === 3 && parts[0] === '' && parts[2] === '') return (s) => fold(s).includes(parts[1]!);
  }
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    if (escapeChar !== '' && ch === escapeChar) {
      if (i + 1 >= p.length) throw new ExecError('LIKE pattern must not end with escape character');
      re += escapeRe(p[++i]!);
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
  const constant = e.pattern.kind === 'literal' && typeof e.pattern.value === 'string';
  const fixed = constant ? likeMatcher(e.pattern.value as string, e.caseInsensitive, e.escape) : null;
  return {
    evaluate(batch) {
      const x = expr.evaluate(batch);
      const p = pattern.evaluate(batch);
      const n = x.length;
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
