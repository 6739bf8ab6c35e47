// Binding the operator forms of an expression: unary and binary operators, comparisons, LIKE and regex matches,
// IN lists, BETWEEN and IS — with PostgreSQL's implicit casts (`coerce.ts`). `bindExpr` dispatches here.
import { NotSupportedError, PlanError } from '../../errors.js';
import type { BinaryOp, Expr } from '../../plan/expr/index.js';
import { BOOL, type DataType, FLOAT64, MAX_DECIMAL_PRECISION, typeName, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { bindCall, bindExpr, type ExprContext } from './bind-expr.js';
import { bindLiteral } from './bind-literal.js';
import { arithmeticTypes, castTo, requireBool, unify, unifyAll } from './coerce.js';
import { SQL_COMPARISONS } from './sql-comparisons.js';

export function bindUnary(ast: Ast, ctx: ExprContext): Expr {
  const inner = bindExpr(ast.expr, ctx);
  const op = String(ast.operator).toUpperCase();
  if (op === 'NOT') return { kind: 'unary', op: 'not', expr: requireBool(inner, 'NOT'), type: BOOL };
  if (op === '+') return inner;
  if (op === '-') {
    if (inner.kind === 'literal' && (typeof inner.value === 'number' || typeof inner.value === 'bigint')) {
      return { ...inner, value: -inner.value as number };
    }
    const e = inner.kind === 'literal' && inner.untyped ? castTo(inner, FLOAT64) : inner;
    if (!['int32', 'int64', 'float64', 'decimal', 'null', 'interval'].includes(e.type.id)) {
      throw new PlanError(`operator does not exist: - ${typeName(e.type)}`);
    }
    return { kind: 'unary', op: 'neg', expr: e, type: e.type };
  }
  throw new NotSupportedError(`unary operator ${ast.operator} is not supported`);
}

export function bindBinary(ast: Ast, ctx: ExprContext): Expr {
  const op = String(ast.operator).toUpperCase();
  const left = () => bindExpr(ast.left, ctx);
  if (op === 'AND' || op === 'OR') {
    const l = requireBool(left(), op);
    const r = requireBool(bindExpr(ast.right, ctx), op);
    return { kind: 'binary', op: op === 'AND' ? 'and' : 'or', left: l, right: r, type: BOOL };
  }
  if (op === 'IN' || op === 'NOT IN' || op === 'NOTIN') return bindIn(left(), ast.right, op !== 'IN', ctx);
  if (op === 'BETWEEN' || op === 'NOT BETWEEN' || op === 'NOTBETWEEN')
    return bindBetween(left(), ast.right, op !== 'BETWEEN', ctx);
  if (op === 'IS DISTINCT FROM' || op === 'IS NOT DISTINCT FROM') {
    // Both arrive through rewrite/is-distinct-from.ts.
    const [a, b] = unify(left(), bindExpr(ast.right, ctx), op);
    return bindCall(op === 'IS DISTINCT FROM' ? 'is_distinct_from' : 'is_not_distinct_from', [a, b]);
  }
  if (op === 'IS' || op === 'IS NOT' || op === 'ISNOT') return bindIs(left(), ast.right, op !== 'IS');
  if (op in LIKE_OPS) {
    const [negated, caseInsensitive] = LIKE_OPS[op]!;
    const l = castTo(left(), UTF8);
    const p = castTo(bindExpr(ast.right, ctx), UTF8);
    const esc = ast.right?.escape?.value;
    const escapeChar = esc === undefined ? '\\' : String(esc.value ?? '');
    if (escapeChar.length > 1) throw new PlanError('invalid escape string: it must be empty or one character');
    return { kind: 'like', expr: l, pattern: p, negated, caseInsensitive, escape: escapeChar, type: BOOL };
  }
  if (op in REGEX_OPS || op === 'SIMILAR TO' || op === 'NOT SIMILAR TO') return bindRegexMatch(op, ast, ctx);
  const l = left();
  const r = bindExpr(ast.right, ctx);
  if (op in SQL_COMPARISONS) {
    // Decimals whose common scale would need more than 18 digits compare exactly as they are (the kernel rescales).
    if (l.type.id === 'decimal' && r.type.id === 'decimal' && !fitsCommonScale(l.type, r.type))
      return { kind: 'binary', op: SQL_COMPARISONS[op]!, left: l, right: r, type: BOOL };
    const [a, b] = unify(l, r, `operator ${op}`);
    return { kind: 'binary', op: SQL_COMPARISONS[op]!, left: a, right: b, type: BOOL };
  }
  // `^` is power(); floe's is double precision throughout (PostgreSQL's numeric ^ numeric is numeric)
  if (op === '^') return bindCall('power', [l, r]);
  if (op === '||') return bindCall('textcat', [castTo(l, UTF8), castTo(r, UTF8)]);
  if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%') {
    const [a, b, type] = arithmeticTypes(op, l, r);
    return { kind: 'binary', op: op as BinaryOp, left: a, right: b, type };
  }
  throw new NotSupportedError(`operator ${ast.operator} is not supported yet`);
}

function fitsCommonScale(a: DataType & { id: 'decimal' }, b: DataType & { id: 'decimal' }): boolean {
  if (a.scale === b.scale) return true;
  return Math.max(a.precision - a.scale, b.precision - b.scale) + Math.max(a.scale, b.scale) <= MAX_DECIMAL_PRECISION;
}

/** LIKE and ILIKE, as the parser spells them: [negated, case-insensitive]. */
const LIKE_OPS: Record<string, [boolean, boolean]> = {
  LIKE: [false, false],
  NOTLIKE: [true, false],
  'NOT LIKE': [true, false],
  ILIKE: [false, true],
  NOTILIKE: [true, true],
  'NOT ILIKE': [true, true],
};

/** `~` `~*` `!~` `!~*`: [negated, case-insensitive]. */
const REGEX_OPS: Record<string, [boolean, boolean]> = {
  '~': [false, false],
  '~*': [false, true],
  '!~': [true, false],
  '!~*': [true, true],
};

/** `s ~ p` is regexp_like(s, p); `s SIMILAR TO p [ESCAPE e]` is `s ~ similar_to_escape(p [, e])`, as in PostgreSQL. */
function bindRegexMatch(op: string, ast: Ast, ctx: ExprContext): Expr {
  const s = castTo(bindExpr(ast.left, ctx), UTF8);
  let p = castTo(bindExpr(ast.right, ctx), UTF8);
  const [negated, caseInsensitive] = REGEX_OPS[op] ?? [op.startsWith('NOT'), false];
  if (!(op in REGEX_OPS)) {
    const esc = ast.right?.escape?.value;
    p = bindCall('similar_to_escape', esc === undefined ? [p] : [p, castTo(bindExpr(esc, ctx), UTF8)]);
  }
  const match = bindCall('regexp_like', caseInsensitive ? [s, p, bindLiteral('i')] : [s, p]);
  return negated ? { kind: 'unary', op: 'not', expr: match, type: BOOL } : match;
}

function bindIn(e: Expr, list: Ast, negated: boolean, ctx: ExprContext): Expr {
  if (list.type !== 'expr_list' || list.value?.some((v: Ast) => v.ast || v.type === 'select')) {
    throw new NotSupportedError('IN (subquery) is not supported yet');
  }
  const items = list.value.map((v: Ast) => bindExpr(v, ctx));
  const { exprs } = unifyAll([e, ...items], 'IN');
  return { kind: 'in_list', expr: exprs[0]!, list: exprs.slice(1), negated, type: BOOL };
}

function bindBetween(e: Expr, range: Ast, negated: boolean, ctx: ExprContext): Expr {
  const [lo, hi] = range.value.map((v: Ast) => bindExpr(v, ctx));
  const [a1, l] = unify(e, lo, 'operator BETWEEN');
  const [a2, h] = unify(e, hi, 'operator BETWEEN');
  const inside: Expr = {
    kind: 'binary',
    op: 'and',
    left: { kind: 'binary', op: '>=', left: a1, right: l, type: BOOL },
    right: { kind: 'binary', op: '<=', left: a2, right: h, type: BOOL },
    type: BOOL,
  };
  return negated ? { kind: 'unary', op: 'not', expr: inside, type: BOOL } : inside;
}

function bindIs(e: Expr, right: Ast, negated: boolean): Expr {
  if (right.type === 'null') return { kind: 'unary', op: negated ? 'is_not_null' : 'is_null', expr: e, type: BOOL };
  if (right.type === 'bool') {
    const truth = Boolean(right.value);
    const op = truth ? (negated ? 'is_not_true' : 'is_true') : negated ? 'is_not_false' : 'is_false';
    return { kind: 'unary', op, expr: requireBool(e, 'IS'), type: BOOL };
  }
  throw new PlanError('syntax error: IS must be followed by NULL, TRUE, FALSE, UNKNOWN or [NOT] DISTINCT FROM');
}
