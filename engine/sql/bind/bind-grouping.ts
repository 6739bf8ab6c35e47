// GROUP BY with GROUPING SETS / ROLLUP / CUBE -> group expressions + grouping sets; GROUPING() -> its value.
import { NotSupportedError, PlanError } from '../../errors.js';
import { exprText } from '../../plan/expr/display.js';
import { type Expr, transformExpr } from '../../plan/expr/index.js';
import { GROUPING_ID_COLUMN, groupingValue } from '../../plan/logical/index.js';
import { BOOL, INT32 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { GROUPING_SETS_CALL } from '../rewrite/grouping-sets-edits.js';

type Sets = number[][];

export interface GroupingSpec {
  /** The distinct group expressions, in order of first mention. */
  readonly groupBy: Expr[];
  /** Indexes into `groupBy` per grouping set; `null` for a plain GROUP BY (one set of every expression). */
  readonly sets: Sets | null;
}

/** A GROUPING(…) call met while binding: its arguments and the placeholder column standing for it. */
export interface GroupingCall {
  readonly args: readonly Expr[];
  readonly name: string;
}

const MAX_CUBE_ITEMS = 12;
const MAX_GROUPING_COLUMNS = 31;

/**
 * Expands a GROUP BY list. Each item contributes a list of sets and the list's result is their cross
 * product (PostgreSQL): `a` -> {(a)}; `(a, b)` -> {(a, b)}; ROLLUP(a, b) -> {(a, b), (a), ()};
 * CUBE(a, b) -> {(a, b), (a), (b), ()}; GROUPING SETS (x, …) -> the union of each member's sets.
 * `bindLeaf` binds one group expression (ordinals and output names resolve there).
 */
export function bindGroupBy(items: readonly Ast[], bindLeaf: (g: Ast) => Expr): GroupingSpec {
  const groupBy: Expr[] = [];
  let grouped = false;
  const indexOf = (g: Ast): number => {
    const e = bindLeaf(g);
    const text = exprText(e);
    let at = groupBy.findIndex((x) => exprText(x) === text);
    if (at < 0) at = groupBy.push(e) - 1;
    return at;
  };
  const composite = (g: Ast): number[] =>
    g.type === 'expr_list' && g.parentheses ? g.value.map(indexOf) : [indexOf(g)];
  const element = (g: Ast): Sets => {
    const kind = g.type === 'function' ? callName(g) : null;
    // The parser reads ROLLUP((a, b)) as ROLLUP(a, b) with the argument list marked parenthesised.
    const args: Ast[] = g.args?.parentheses ? [{ ...g.args, parentheses: true }] : (g.args?.value ?? []);
    if (kind === 'rollup' || kind === 'cube' || kind === GROUPING_SETS_CALL) grouped = true;
    if (kind === 'rollup') return rollup(args.map(composite));
    if (kind === 'cube') return cube(args.map(composite));
    if (kind === GROUPING_SETS_CALL) return args.length === 0 ? [[]] : args.flatMap(element);
    return [composite(g)];
  };
  let sets: Sets = [[]];
  for (const item of items) {
    const mine = element(item);
    sets = sets.flatMap((s) => mine.map((m) => [...new Set([...s, ...m])]));
  }
  const plain = sets.length === 1 && sets[0]!.length === groupBy.length;
  if (!grouped || plain) return { groupBy, sets: null };
  if (groupBy.length > MAX_GROUPING_COLUMNS) {
    throw new NotSupportedError(`grouping sets over more than ${MAX_GROUPING_COLUMNS} expressions are not supported`);
  }
  return { groupBy, sets };
}

function callName(g: Ast): string {
  const parts = g.name?.name ?? [g.name];
  return parts
    .map((p: Ast) => (typeof p === 'string' ? p : p.value))
    .join('.')
    .toLowerCase();
}

function rollup(items: number[][]): Sets {
  return items.map((_, k) => items.slice(0, items.length - k).flat()).concat([[]]);
}

function cube(items: number[][]): Sets {
  if (items.length > MAX_CUBE_ITEMS) throw new PlanError(`CUBE is limited to ${MAX_CUBE_ITEMS} elements`);
  const out: Sets = [];
  for (let mask = (1 << items.length) - 1; mask >= 0; mask--) {
    out.push(items.filter((_, i) => mask & (1 << (items.length - 1 - i))).flat());
  }
  return out;
}

/**
 * Replaces each GROUPING(…) placeholder column in `e` with its value: 0 under a plain GROUP BY, else the
 * grouping-id column itself when the arguments are every group expression in order, or a CASE over it.
 */
export function resolveGrouping(e: Expr, calls: readonly GroupingCall[], spec: GroupingSpec): Expr {
  if (calls.length === 0) return e;
  const keys = spec.groupBy.map(exprText);
  return transformExpr(e, (x) => {
    const call = x.kind === 'column' && x.qualifier === null ? calls.find((c) => c.name === x.name) : undefined;
    if (!call) return x;
    const args = call.args.map((a) => {
      const at = keys.indexOf(exprText(a));
      if (at < 0)
        throw new PlanError('arguments to GROUPING must be grouping expressions of the associated query level');
      return at;
    });
    if (spec.sets === null) return { kind: 'literal', value: 0, type: INT32 };
    const id: Expr = { kind: 'column', qualifier: null, name: GROUPING_ID_COLUMN, type: INT32 };
    const all = spec.groupBy.map((_, i) => i);
    if (args.length === all.length && args.every((a, i) => a === i)) return id;
    const whens = spec.sets.map((s) => ({
      when: {
        kind: 'binary',
        op: '=',
        left: id,
        right: { kind: 'literal', value: groupingValue(s, all), type: INT32 },
        type: BOOL,
      } as Expr,
      result: { kind: 'literal', value: groupingValue(s, args), type: INT32 } as Expr,
    }));
    return { kind: 'case', whens, otherwise: null, type: INT32 };
  });
}
