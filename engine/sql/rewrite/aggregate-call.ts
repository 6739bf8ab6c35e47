// Aggregate calls the parser lacks: `sum(DISTINCT x)`, `min(ALL x)`, `stddev(x) FILTER (…)`, `sum(x ORDER BY y)`.
import { NotSupportedError } from '../../errors.js';
import { AGGREGATE_NAMES } from '../../functions/registry.js';
import type { Ast } from '../parse.js';
import { replaceKeepingLength, type SqlEdit } from './edit.js';
import { removeLeftMarker } from './is-distinct-from.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, matchingParen, significant, type Token } from './tokenize.js';

/** Aggregates the parser reads with DISTINCT, ORDER BY and FILTER as they are. */
const PARSER_AGGREGATES = new Set(['count', 'string_agg', 'array_agg']);
/** Aggregates whose FILTER clause the parser takes. */
const PARSER_FILTERS = new Set(['count', 'sum', 'avg', 'min', 'max', 'string_agg', 'array_agg']);
const MARKER = /^__floe_([a-z_]+)\.array_agg$/i;

/**
 * Text: `ALL` inside an aggregate call is dropped (it is the default); `name(DISTINCT …)`, `name(… ORDER BY …)`,
 * and `name(…) FILTER` for aggregates the parser knows no FILTER for, become `__floe_name.array_agg(…)`, which
 * the parser reads with DISTINCT, ORDER BY and FILTER (string_agg with a separator other than one literal
 * before ORDER BY passes its two arguments as one parenthesised list). Calls followed by OVER are left alone (window functions), or refused with a
 * NotSupportedError when the parser could not read them and the binder would refuse them anyway.
 * AST: the marker call gets its name back, and plain `stddev(x)`-style function calls become `aggr_func`
 * nodes, so every aggregate reaches the binder in one shape: `{type: 'aggr_func', name, args: {expr, distinct,
 * orderby, separator}, filter, over}` with a lower-case name.
 */
export const aggregateCall: SqlRewrite = {
  name: 'aggregate-call',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    for (let i = 0; i + 1 < t.length; i++) {
      const name = t[i]!.kind === 'word' ? t[i]!.text.toLowerCase() : '';
      if (!AGGREGATE_NAMES.has(name) || t[i + 1]!.text !== '(' || t[i - 1]?.text === '.') continue;
      const close = matchingParen(t, i + 1);
      if (close < 0) continue;
      const first = t[i + 2]!;
      if (isWord(t[close + 1], 'over')) {
        refuseWindowAggregate(name, first);
        continue;
      }
      if (isWord(first, 'all')) edits.push(replaceKeepingLength(first.start, first.end, ''));
      const ordered = orderByAt(t, i + 1, close);
      const pair = name === 'string_agg' && (ordered >= 0 || isWord(first, 'distinct'));
      const pairEdits = pair ? stringAggPair(t, i, ordered >= 0 ? ordered : close) : [];
      edits.push(...pairEdits);
      // `DISTINCT (a) * 2` reads as a call of a function DISTINCT: `DISTINCT +(a) * 2` (fixNode drops the `+`)
      if (isWord(first, 'distinct') && t[i + 3]?.text === '(' && pairEdits.length === 0)
        edits.push({ start: t[i + 3]!.start, end: t[i + 3]!.start, text: '+' });
      if (PARSER_AGGREGATES.has(name)) continue;
      const filtered = isWord(t[close + 1], 'filter') && !PARSER_FILTERS.has(name);
      if (isWord(first, 'distinct') || filtered || ordered >= 0)
        edits.push({ start: t[i]!.start, end: t[i]!.end, text: `__floe_${name}.array_agg` });
    }
    return edits;
  },
  fixNode(node) {
    if (node.type === 'aggr_func') {
      if (node.args?.distinct && node.args.expr) removeLeftMarker(node.args, 'expr');
      const m = MARKER.exec(String(node.name));
      node.name = (m ? m[1]! : String(node.name)).toLowerCase();
      const pair = node.args?.expr;
      if (m && node.name === 'string_agg' && pair?.type === 'expr_list' && pair.value?.length === 2) {
        node.args.expr = pair.value[0];
        node.args.separator = { symbol: ',', delimiter: pair.value[1] };
      }
      return;
    }
    if (node.type !== 'function' || node.name?.schema || node.name?.name?.length !== 1) return;
    const name = String(node.name.name[0].value).toLowerCase();
    const args: Ast[] = node.args?.value ?? [];
    // string_agg(x, <non-literal separator>) arrives as a plain function call.
    const arity = name === 'string_agg' ? 2 : 1;
    // count((a) * 2) is a plain call too: the parser's count takes no parenthesised operand on the left
    if (!AGGREGATE_NAMES.has(name) || args.length !== arity || name === 'array_agg') return;
    for (const k of Object.keys(node)) if (k !== 'over') delete node[k];
    const separator = arity === 2 ? { symbol: ',', delimiter: args[1] } : null;
    Object.assign(node, {
      type: 'aggr_func',
      name,
      args: { expr: args[0], distinct: null, orderby: null, separator },
      filter: null,
    });
  },
};

/** Window aggregates the parser and WindowExec both take (without DISTINCT). */
const WINDOW_AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max']);

function refuseWindowAggregate(name: string, first: Token): void {
  // PostgreSQL 15's own error for any aggregate with DISTINCT over a window.
  if (isWord(first, 'distinct')) throw new NotSupportedError('DISTINCT is not implemented for window functions');
  if (!WINDOW_AGGREGATES.has(name))
    throw new NotSupportedError(`aggregate function ${name} as a window function is not supported yet`);
}

/** Index of the `ORDER` of an `ORDER BY` directly inside the call's parentheses (`open`…`close`), or -1. */
function orderByAt(t: readonly Token[], open: number, close: number): number {
  const depth = t[open]!.depth + 1;
  for (let j = open + 1; j < close; j++)
    if (t[j]!.depth === depth && isWord(t[j], 'order') && isWord(t[j + 1], 'by')) return j;
  return -1;
}

/**
 * string_agg(x, sep ORDER BY k) -> __floe_string_agg.array_agg((x, sep) ORDER BY k), and likewise with DISTINCT,
 * when `sep` is not one string literal (the only separator the parser reads there); `end` is the ORDER or the
 * closing parenthesis. fixNode splits the pair again.
 */
function stringAggPair(t: readonly Token[], at: number, end: number): SqlEdit[] {
  const depth = t[at + 1]!.depth + 1;
  let comma = -1;
  for (let j = at + 2; j < end; j++) if (t[j]!.depth === depth && t[j]!.text === ',') comma = j;
  if (comma < 0 || (comma + 2 === end && t[comma + 1]!.kind === 'string')) return [];
  const first = isWord(t[at + 2], 'distinct') || isWord(t[at + 2], 'all') ? t[at + 3]! : t[at + 2]!;
  return [
    { start: t[at]!.start, end: t[at]!.end, text: '__floe_string_agg.array_agg' },
    { start: first.start, end: first.start, text: '(' },
    { start: t[end]!.start, end: t[end]!.start, text: ') ' },
  ];
}
