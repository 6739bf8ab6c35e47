// `reassociateOperators`: rebuilds every unparenthesised operator expression with PostgreSQL's precedence table.
import type { Ast } from '../parse.js';

/**
 * PostgreSQL 15's operator precedence (highest first; "Lexical Structure", table 4.2), for every operator the
 * parser accepts. node-sql-parser's grammar ranks several of them differently (it reads `NOT (x) IS NULL` as a
 * call of a function NOT, so `(NOT x) IS NULL`; `a + b || c` as `a + (b || c)`; `a LIKE b = c` as
 * `a LIKE (b = c)`), so each expression is flattened back into its operands and operators, in text order, and
 * rebuilt here by precedence climbing.
 *
 * | level | operators                                              | associativity |
 * | ----- | ------------------------------------------------------ | ------------- |
 * | 11    | unary `+` `-`                                          | right         |
 * | 10    | `^` (rewritten from `#-`, caret-operator.ts)           | left          |
 * | 9     | `*` `/` `%`                                            | left          |
 * | 8     | binary `+` `-`                                         | left          |
 * | 7     | any other operator: `\|\|` `~` `~*` `!~` `!~*` `->` … | left          |
 * | 6     | `[NOT] BETWEEN` `[NOT] IN` `[NOT] LIKE` `[NOT] ILIKE` `[NOT] SIMILAR TO` | non-associative (read left) |
 * | 5     | `<` `>` `=` `<=` `>=` `<>` `!=`                        | non-associative (read left) |
 * | 4     | `IS [NOT] NULL/TRUE/FALSE/UNKNOWN`, `IS [NOT] DISTINCT FROM`, `ISNULL`, `NOTNULL` | non-associative (read left) |
 * | 3     | `NOT`                                                  | right         |
 * | 2     | `AND`                                                  | left          |
 * | 1     | `OR`                                                   | left          |
 *
 * `::`, `[]`, `COLLATE` and `AT TIME ZONE` bind tighter than all of these and reach this pass already attached
 * to their operand. PostgreSQL rejects a chain of two non-associative operators of one level (`a < b < c`); floe
 * reads it left to right.
 */
export const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  '^': 10,
  '*': 9,
  '/': 9,
  '%': 9,
  '+': 8,
  '-': 8,
  BETWEEN: 6,
  'NOT BETWEEN': 6,
  IN: 6,
  'NOT IN': 6,
  LIKE: 6,
  'NOT LIKE': 6,
  ILIKE: 6,
  'NOT ILIKE': 6,
  'SIMILAR TO': 6,
  'NOT SIMILAR TO': 6,
  '<': 5,
  '>': 5,
  '=': 5,
  '<=': 5,
  '>=': 5,
  '<>': 5,
  '!=': 5,
  IS: 4,
  'IS NOT': 4,
  'IS DISTINCT FROM': 4,
  'IS NOT DISTINCT FROM': 4,
  AND: 2,
  OR: 1,
};
const OTHER_OPERATOR = 7;
const UNARY_SIGN = 11;
const NOT_LEVEL = 3;
/** Binary operators whose right side is an operand list or a keyword, never re-read as an operator chain. */
const CLOSED_RIGHT = new Set(['BETWEEN', 'NOT BETWEEN', 'IN', 'NOT IN', 'IS', 'IS NOT']);
/** node-sql-parser's binary operators that are not operators over values (kept whole). */
const NOT_AN_OPERATOR = new Set(['OVERLAPS', 'AT TIME ZONE']);

/** `closed`: the infix operator's right side is one operand (a BETWEEN/IN list, IS's keyword, `x ESCAPE e`). */
type Item = { prefix: Ast; level: number } | { infix: Ast; level: number; closed: boolean } | { operand: Ast };

/** Rewrites `ast` in place (and returns it): every operator expression follows PostgreSQL's precedence. */
export function reassociateOperators(ast: Ast): Ast {
  return visit(ast);
}

function visit(node: Ast): Ast {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = visit(node[i]);
    return node;
  }
  if (isOperator(node)) return rebuild(node);
  for (const key of Object.keys(node)) node[key] = visit(node[key]);
  return node;
}

/** Flattens the operator tree under `root`, rebuilds it by precedence, then visits the operands. */
function rebuild(root: Ast): Ast {
  const items: Item[] = [];
  flatten(root, items, true);
  const reader = { items, at: 0 };
  const rebuilt = climb(reader, 0);
  if (reader.at !== items.length) throw new Error('operator re-association left items unread');
  if (root.parentheses) rebuilt.parentheses = true;
  return rebuilt;
}

function isOperator(node: Ast): boolean {
  if (node.type === 'binary_expr') return !NOT_AN_OPERATOR.has(node.operator);
  if (node.type === 'unary_expr') return node.operator === 'NOT' || node.operator === '+' || node.operator === '-';
  return isNotCall(node);
}

/** `NOT (x)`, which node-sql-parser reads as a call of a function named NOT. */
function isNotCall(node: Ast): boolean {
  const name = node.type === 'function' ? node.name?.name : undefined;
  return (
    Array.isArray(name) &&
    name.length === 1 &&
    name[0].type === 'default' &&
    String(name[0].value).toUpperCase() === 'NOT' &&
    node.args?.value?.length === 1 &&
    !node.over
  );
}

/** Items in text order; a parenthesised node (other than the root) is one operand. */
function flatten(node: Ast, out: Item[], isRoot: boolean): void {
  if (node === null || typeof node !== 'object' || (node.parentheses && !isRoot) || !isOperator(node)) {
    out.push({ operand: node });
    return;
  }
  if (node.type === 'function') {
    out.push({ prefix: { type: 'unary_expr', operator: 'NOT' }, level: NOT_LEVEL });
    out.push({ operand: { ...node.args.value[0], parentheses: true } });
    return;
  }
  if (node.type === 'unary_expr') {
    out.push({ prefix: node, level: node.operator === 'NOT' ? NOT_LEVEL : UNARY_SIGN });
    flatten(node.expr, out, false);
    return;
  }
  flatten(node.left, out, false);
  // The parser hangs `ESCAPE e` on the pattern: the pattern stays whole.
  const closed = CLOSED_RIGHT.has(node.operator) || node.right?.escape != null;
  out.push({ infix: node, level: BINARY_PRECEDENCE[node.operator] ?? OTHER_OPERATOR, closed });
  if (closed) out.push({ operand: node.right });
  else flatten(node.right, out, false);
}

/** Precedence climbing: an operand and every following operator of level ≥ `min`, left-associative. */
function climb(r: { items: Item[]; at: number }, min: number): Ast {
  let left = unary(r);
  for (;;) {
    const next = r.items[r.at];
    if (next === undefined || !('infix' in next) || next.level < min) return left;
    r.at++;
    const right = next.closed ? operand(r) : climb(r, next.level + 1);
    left = unparenthesised({ ...next.infix, left, right });
  }
}

/** A prefix operator applies to everything after it that binds at least as tightly as itself. */
function unary(r: { items: Item[]; at: number }): Ast {
  const item = r.items[r.at];
  if (item !== undefined && 'prefix' in item) {
    r.at++;
    return unparenthesised({ ...item.prefix, expr: climb(r, item.level) });
  }
  return operand(r);
}

function operand(r: { items: Item[]; at: number }): Ast {
  const item = r.items[r.at++];
  if (item === undefined || !('operand' in item)) throw new Error('operator re-association expected an operand');
  const node = item.operand;
  // Inside a parenthesised operand, or a BETWEEN/IN list, expressions are re-associated on their own.
  return node !== null && typeof node === 'object' && node.parentheses && isOperator(node)
    ? rebuild(node)
    : visit(node);
}

function unparenthesised(node: Ast): Ast {
  delete node.parentheses;
  return node;
}
