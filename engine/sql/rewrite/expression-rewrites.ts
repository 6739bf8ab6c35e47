// Expression-level rewrites of the whole statement text, in the order they run; `rewriteSql` applies them, `fixAst`
// undoes their markers.
import type { Ast } from '../parse.js';
import { aggregateCall } from './aggregate-call.js';
import { allQuantifier } from './all-quantifier.js';
import { caretOperator } from './caret-operator.js';
import { caseOperand } from './case-operand.js';
import { commaAfterOn } from './comma-after-on.js';
import { cteValues } from './cte-values.js';
import { applyEdits, type OffsetMap } from './edit.js';
import { escapeStrings } from './escape-strings.js';
import { isDistinctFrom } from './is-distinct-from.js';
import { limitNull } from './limit-null.js';
import { listLogicalOperand } from './list-logical-operand.js';
import { logicGroupCast } from './logic-group-cast.js';
import { naturalJoin } from './natural-join.js';
import { paramCast } from './param-cast.js';
import { positionIn } from './position-in.js';
import { postfixNullTest } from './postfix-null-test.js';
import { predicateChain } from './predicate-chain.js';
import type { SqlRewrite } from './rewrite.js';
import { standardStrings } from './standard-strings.js';
import { subqueryParenItem } from './subquery-paren-item.js';
import { substringFromFor } from './substring-from-for.js';
import { type Token, tokenize } from './tokenize.js';
import { windowFilter } from './window-filter.js';

/**
 * Each rewrite sees the output of the ones before it (tokenized afresh), so order matters only where two
 * match the same text or one reads another's output: window-filter runs before aggregate-call, which then sees
 * `f(x) OVER` and leaves it alone; predicate-chain's place is noted at its entry. Add a gap as one file exporting a `SqlRewrite` and list it here.
 */
export const REWRITES: readonly SqlRewrite[] = [
  // escape-strings writes standard literals, which standard-strings then reads
  escapeStrings,
  standardStrings,
  naturalJoin,
  cteValues,
  commaAfterOn,
  substringFromFor,
  isDistinctFrom,
  allQuantifier,
  postfixNullTest,
  // after is-distinct-from, all-quantifier and postfix-null-test (it reads their output), before aggregate-call
  // (which marks the `DISTINCT (` this one may leave)
  predicateChain,
  windowFilter,
  aggregateCall,
  limitNull,
  paramCast,
  logicGroupCast,
  positionIn,
  caseOperand,
  subqueryParenItem,
  caretOperator,
  listLogicalOperand,
];

export interface Rewritten {
  readonly sql: string;
  /** Maps an offset in `sql` to the offset in the text the caller passed in (for syntax error positions). */
  readonly toOriginal: OffsetMap;
}

/** Applies every rewrite in order; string literals, quoted identifiers and comments are never changed. */
export function rewriteSql(sql: string, rewrites: readonly SqlRewrite[] = REWRITES): Rewritten {
  let text = sql;
  const maps: OffsetMap[] = [];
  // Most rewrites find nothing to edit: the tokens are made again only after one that changed the text.
  let tokens: Token[] | null = null;
  for (const r of rewrites) {
    tokens ??= tokenize(text);
    const edits = r.edit(tokens, text);
    if (edits.length === 0) continue;
    const next = applyEdits(text, edits);
    text = next.sql;
    tokens = null;
    maps.unshift(next.toOriginal);
  }
  return { sql: text, toOriginal: (o) => maps.reduce((at, m) => m(at), o) };
}

/** Runs every rewrite's `fixNode` over the parsed AST, children before parents (mutates in place). */
export function fixAst(ast: Ast, rewrites: readonly SqlRewrite[] = REWRITES): Ast {
  const fixers = rewrites.flatMap((r) => (r.fixNode ? [r.fixNode] : []));
  const visit = (node: Ast): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    for (const v of Object.values(node)) visit(v);
    for (const f of fixers) f(node);
  };
  visit(ast);
  return ast;
}
