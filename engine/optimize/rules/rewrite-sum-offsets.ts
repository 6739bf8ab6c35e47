// rewrite-sum-offsets: SUM(x + c), SUM(c + x), SUM(x - c) and SUM(c - x) of an int32 x become SUM(x) ± c * COUNT(x)
// (ClickHouse's rewrite of sums over arithmetic), every offset of one x sharing one SUM/COUNT pair: 90 sums of
// `ResolutionWidth + k` add one column instead of computing and adding 90 (1 M rows: 2616 ms -> 25 ms, DuckDB 30).
// A projection above restores the aggregate's columns in their order, under their names.

import { exprText } from '../../plan/expr/display.js';
import type { BinaryExpr, Expr } from '../../plan/expr/index.js';
import {
  type Aggregate,
  type AggregateCall,
  type AggregateFn,
  type LogicalPlan,
  makeProject,
} from '../../plan/logical/index.js';
import { type Field, INT64 } from '../../plan/types.js';
import { displayName } from '../../sql/bind/bind-aggregate.js';
import type { OptimizerRule } from '../rule.js';
import { mapAggregatesReadWhole } from './aggregates-read-whole.js';
import { offsetCheck, offsetValue, type SumOffset } from './sum-offset-exprs.js';

export const rewriteSumOffsets: OptimizerRule = {
  name: 'rewrite-sum-offsets',
  // Under a LIMIT that may stop before every group is read, the overflow checks could miss a group whose `x + c`
  // overflows where PostgreSQL raises: no rewrite there.
  apply: (plan) => mapAggregatesReadWhole(plan, rewriteAggregate),
};

/** Fewer offset sums of one x than this keep their own SUM: the shared pair brings COUNT and MIN/MAX along. */
const MIN_SHARED_OFFSETS = 2;

/** `x + c` (or the other three forms) of an int32 x and a non-NULL int32 literal c, or null. */
function sumOffsetOf(call: AggregateCall): SumOffset | null {
  if (call.fn !== 'sum' || call.distinct || call.orderBy?.length || call.args.length !== 1) return null;
  const arg = call.args[0]!;
  if (arg.kind !== 'binary' || (arg.op !== '+' && arg.op !== '-') || arg.type.id !== 'int32') return null;
  const litLeft = arg.left.kind === 'literal';
  const [lit, x] = litLeft ? [arg.left, arg.right] : [arg.right, arg.left];
  if (lit.kind !== 'literal' || typeof lit.value !== 'number' || lit.type.id !== 'int32') return null;
  if (x.kind === 'literal' || x.type.id !== 'int32') return null;
  const decreasing = arg.op === '-' && litLeft;
  const delta = arg.op === '-' && !litLeft ? -lit.value : lit.value;
  return { call, arg: arg as BinaryExpr, x, delta, decreasing };
}

const keyOf = (x: Expr, filter: Expr | null) => `${exprText(x)} :: ${filter ? exprText(filter) : ''}`;

function callKey(c: AggregateCall): string {
  const args = c.args.map((a) => `${exprText(a)}::${JSON.stringify(a.type)}`).join(', ');
  const order = JSON.stringify(c.orderBy ?? []);
  return `${c.fn}(${c.distinct ? 'DISTINCT ' : ''}${args} ${order}) ${c.filter ? exprText(c.filter) : ''}`;
}

function rewriteAggregate(agg: Aggregate): LogicalPlan | null {
  if (agg.groupingSets !== undefined) return null;
  const groups = new Map<string, SumOffset[]>();
  for (const call of agg.aggregates) {
    const o = sumOffsetOf(call);
    if (o === null) continue;
    const key = keyOf(o.x, call.filter);
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  const shared = [...groups.values()].filter((g) => g.length >= MIN_SHARED_OFFSETS);
  if (shared.length === 0) return null;

  const calls = new CallSet(agg.aggregates.map((c) => c.name));
  const rewritten = new Map<AggregateCall, Expr>();
  const offsets = new Set(shared.flat().map((o) => o.call));
  // Calls not rewritten stay, each once, under their own names (the rewrite's SUM(x) may be one of them).
  for (const call of agg.aggregates) if (!offsets.has(call)) rewritten.set(call, calls.addCall(call));
  for (const group of shared) {
    const { x } = group[0]!;
    const filter = group[0]!.call.filter;
    const part = (fn: AggregateFn) => calls.add(fn, x, filter);
    const sum = part('sum');
    const count = part('count');
    const check = offsetCheck(group, part);
    group.forEach((o, i) => {
      rewritten.set(o.call, offsetValue(o, sum, count, i === 0 ? check : null));
    });
  }
  const g = agg.groupBy.length;
  const exprs = agg.schema.fields.map((f, i): Expr => {
    if (i < g) return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
    return rewritten.get(agg.aggregates[i - g]!)!;
  });
  const inner: Aggregate = {
    ...agg,
    aggregates: calls.list,
    schema: { fields: [...agg.schema.fields.slice(0, g), ...calls.list.map(callField)] },
  };
  return makeProject(inner, exprs, agg.schema.fields);
}

const callField = (c: AggregateCall): Field => ({
  name: c.name,
  qualifier: null,
  type: c.type,
  nullable: c.fn !== 'count',
});

/** The inner aggregate's calls: each distinct call once, under a name no other call of the aggregate has. */
class CallSet {
  readonly list: AggregateCall[] = [];
  readonly #byKey = new Map<string, AggregateCall>();
  readonly #taken: Set<string>;

  constructor(names: readonly string[]) {
    this.#taken = new Set(names);
  }

  /** `fn(x) FILTER (WHERE filter)` as a column of the inner aggregate. */
  add(fn: AggregateFn, x: Expr, filter: Expr | null): Expr {
    const type = fn === 'count' || fn === 'sum' ? INT64 : x.type;
    let name = `${fn}(${displayName(x)})${filter ? ` FILTER (WHERE ${displayName(filter)})` : ''}`;
    const fresh: AggregateCall = { fn, args: [x], distinct: false, filter, type, name };
    const known = this.#byKey.get(callKey(fresh));
    if (known) return ref(known);
    while (this.#taken.has(name)) name += "'";
    return this.addCall({ ...fresh, name });
  }

  /** An existing call: kept under its own name, unless an identical call is already in. */
  addCall(call: AggregateCall): Expr {
    const key = callKey(call);
    const known = this.#byKey.get(key);
    if (known) return ref(known);
    this.#byKey.set(key, call);
    this.#taken.add(call.name);
    this.list.push(call);
    return ref(call);
  }
}

const ref = (c: AggregateCall): Expr => ({ kind: 'column', qualifier: null, name: c.name, type: c.type });
