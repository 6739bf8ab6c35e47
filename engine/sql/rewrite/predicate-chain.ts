// `a = b IS NULL` -> `(a = b) IS NULL`: chains of comparison, pattern, range and IS operators parenthesised by
// PostgreSQL's precedence, since the parser takes one such operator per operand (the chain was a syntax error).
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { isWord, keyword, significant, type Token } from './tokenize.js';

/** Levels of operator-precedence.ts: LIKE/IN/BETWEEN over comparisons over IS. */
const PATTERN = 6;
const COMPARISON = 5;
const IS = 4;
const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const PATTERN_WORDS = new Set(['like', 'ilike', 'in', 'between', 'similar']);
const IS_KEYWORDS = new Set(['null', 'true', 'false', 'unknown']);
/** Keywords that end an operand at their own nesting level (AND ends one too, except BETWEEN's). */
const BOUNDARIES = new Set(
  (
    'or not select distinct from where having on using when then else group order by limit offset as union intersect ' +
    'except join inner left right full cross natural returning values window over filter partition rows range ' +
    'groups asc desc nulls into set with lateral fetch for'
  ).split(' '),
);

/** One operator of a chain: tokens [from, to]; `postfix` when it takes no right operand (IS NULL, IS TRUE …). */
interface ChainOp {
  readonly from: number;
  readonly to: number;
  readonly level: number;
  readonly postfix: boolean;
}

/**
 * Only a run of two or more such operators with no AND/OR/NOT/comma/clause keyword between them is edited; every
 * other expression (one comparison per operand) is left as the parser reads it.
 */
export const predicateChain: SqlRewrite = {
  name: 'predicate-chain',
  edit(all) {
    const t = significant(all);
    const edits: SqlEdit[] = [];
    scanGroup(t, 0, edits);
    return edits;
  },
};

/** Reads operands and operators from `start` to the end of this nesting level; returns the index after it. */
function scanGroup(t: readonly Token[], start: number, edits: SqlEdit[]): number {
  let factorStart = start;
  let ops: ChainOp[] = [];
  let openBetween = 0;
  const flush = (end: number) => {
    if (ops.length >= 2) parenthesise(t, factorStart, end, ops, edits);
    ops = [];
  };
  let i = start;
  while (i < t.length) {
    const tok = t[i]!;
    const word = keyword(tok);
    if (tok.text === '(' || word === 'case') {
      const distinctOn = isWord(t[i - 1], 'on') && isWord(t[i - 2], 'distinct');
      i = scanGroup(t, i + 1, edits);
      // DISTINCT ON (…) is no operand of what follows it
      if (distinctOn) factorStart = i;
      continue;
    }
    if (tok.text === ')' || word === 'end') {
      flush(i);
      return i + 1;
    }
    const op = chainOp(t, i);
    if (op !== null) {
      if (isWord(t[op.from], 'between') || isWord(t[op.from + 1], 'between')) openBetween++;
      ops.push(op);
      i = op.to + 1;
      continue;
    }
    if (word === 'and' && openBetween > 0) openBetween--;
    else if (tok.text === ',' || tok.text === ';' || word === 'and' || (word !== null && BOUNDARIES.has(word))) {
      flush(i);
      factorStart = i + 1;
      openBetween = 0;
    }
    i++;
  }
  flush(t.length);
  return t.length;
}

/** The chain operator starting at token i, or null. */
function chainOp(t: readonly Token[], i: number): ChainOp | null {
  const tok = t[i]!;
  if (tok.kind === 'op' && COMPARISONS.has(tok.text)) return { from: i, to: i, level: COMPARISON, postfix: false };
  const w = keyword(tok);
  const negated = w === 'not' && PATTERN_WORDS.has(keyword(t[i + 1]) ?? '');
  const head = negated ? keyword(t[i + 1]) : w;
  if (head !== null && PATTERN_WORDS.has(head)) {
    const at = negated ? i + 1 : i;
    // SIMILAR TO is two words
    return { from: i, to: head === 'similar' ? at + 1 : at, level: PATTERN, postfix: false };
  }
  if (w !== 'is') return null;
  const j = isWord(t[i + 1], 'not') ? i + 2 : i + 1;
  const postfix = IS_KEYWORDS.has(keyword(t[j]) ?? '');
  // IS [NOT] DISTINCT FROM reaches this rewrite as `IS [NOT] +x` (is-distinct-from.ts).
  return { from: i, to: postfix ? j : j - 1, level: IS, postfix };
}

/**
 * Parenthesises operands [start, end) joined by `ops` by precedence climbing (left-associative within a level),
 * as PostgreSQL's grammar groups them.
 */
function parenthesise(t: readonly Token[], start: number, end: number, ops: ChainOp[], edits: SqlEdit[]): void {
  // operand k spans [bounds[k].from, bounds[k].to] (token indices); a postfix operator's right operand is empty
  const bounds = [{ from: start, to: ops[0]!.from - 1 }];
  if (start > ops[0]!.from - 1) return;
  for (let k = 0; k < ops.length; k++) {
    const from = ops[k]!.to + 1;
    const to = (k + 1 < ops.length ? ops[k + 1]!.from : end) - 1;
    if (ops[k]!.postfix !== from > to) return; // not a chain we understand
    bounds.push({ from, to });
  }
  type Node = { from: number; to: number; combined: boolean };
  const reader = { next: 0 };
  // A combined operand of another operator gets parentheses; the whole chain does not.
  const child = (n: Node): Node => {
    if (n.combined) {
      edits.push({ start: t[n.from]!.start, end: t[n.from]!.start, text: '(' });
      edits.push({ start: t[n.to]!.end, end: t[n.to]!.end, text: ')' });
    }
    return n;
  };
  const climb = (min: number): Node => {
    let left: Node = { ...bounds[reader.next]!, combined: false };
    while (reader.next < ops.length && ops[reader.next]!.level >= min) {
      const op = ops[reader.next++]!;
      child(left);
      const to = op.postfix ? op.to : child(climb(op.level + 1)).to;
      left = { from: left.from, to, combined: true };
    }
    return left;
  };
  climb(0);
}
