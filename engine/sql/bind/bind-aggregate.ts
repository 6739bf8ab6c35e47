// Aggregation binding: collects aggregate calls, types them, and rewrites expressions over the Aggregate's output.
import { PlanError } from '../../errors.js';
import { exprText } from '../../plan/expr/display.js';
import { type ColumnExpr, type Expr, exprChildren, transformExpr, withChildren } from '../../plan/expr/index.js';
import type { AggregateCall, AggregateFn } from '../../plan/logical/index.js';
import {
  BOOL,
  type DataType,
  decimal,
  type Field,
  FLOAT64,
  INT32,
  INT64,
  isNumeric,
  typeName,
  UTF8,
} from '../../plan/types.js';
import type { AggregateSink } from './bind-expr.js';
import type { GroupingCall } from './bind-grouping.js';

/** Text of an expression with column qualifiers dropped: output names and aggregate names use it. */
export function displayName(e: Expr): string {
  return exprText(transformExpr(e, (x) => (x.kind === 'column' ? { ...x, qualifier: null } : x)));
}

/**
 * Result types. avg, stddev and variance return double precision for every input (PostgreSQL: numeric for
 * integer and numeric inputs, with 16+ fractional digits that floe's 18-digit decimals cannot hold; DuckDB
 * returns double too), so they agree with PostgreSQL to about 15 significant digits.
 */
export function aggregateType(fn: AggregateFn, args: readonly Expr[]): DataType {
  if (fn === 'count') return INT64;
  if (fn === 'string_agg') return UTF8;
  if (fn === 'bool_and' || fn === 'bool_or') return BOOL;
  const t = args[0]!.type;
  if (fn === 'min' || fn === 'max' || fn === 'any_value') return t;
  if (!isNumeric(t) && t.id !== 'null') throw new PlanError(`function ${fn}(${typeName(t)}) does not exist`);
  if (fn !== 'sum') return FLOAT64;
  if (t.id === 'decimal') return decimal(38, t.scale);
  if (t.id === 'int32' || t.id === 'int64') return INT64;
  return FLOAT64;
}

/** Collects the distinct aggregate calls of a query; each becomes a column of the Aggregate node. */
export class AggregateCollector implements AggregateSink {
  readonly calls: AggregateCall[] = [];
  /** Column name of each distinct call, by its qualified text. */
  readonly #names = new Map<string, string>();

  add(
    fn: AggregateFn,
    args: Expr[],
    distinct: boolean,
    star: boolean,
    filter: Expr | null,
    orderBy?: AggregateCall['orderBy'],
  ): ColumnExpr {
    // Calls are the same when their qualified text is; their column is named without qualifiers unless another
    // call already has that name (count(b.name) and count(c.name) are two aggregates).
    const key = callName(fn, args, distinct, star, filter, orderBy, exprText);
    const type = aggregateType(fn, args);
    let name = this.#names.get(key);
    if (name === undefined) {
      name = callName(fn, args, distinct, star, filter, orderBy, displayName);
      if (this.calls.some((c) => c.name === name)) name = key;
      this.#names.set(key, name);
      this.calls.push({ fn, args, distinct, filter, type, name, ...(orderBy?.length ? { orderBy } : {}) });
    }
    return { kind: 'column', qualifier: null, name, type };
  }

  /** GROUPING(args): a placeholder column, replaced by `resolveGrouping` once GROUP BY is bound. */
  readonly groupings: GroupingCall[] = [];

  grouping(args: Expr[]): ColumnExpr {
    if (args.length === 0 || args.length > 31) throw new PlanError('GROUPING must have between 1 and 31 arguments');
    const name = `grouping(${args.map(displayName).join(', ')})`;
    if (!this.groupings.some((g) => g.name === name)) this.groupings.push({ args, name });
    return { kind: 'column', qualifier: null, name, type: INT32 };
  }
}

/** `sum(DISTINCT x) FILTER (WHERE …)`, `string_agg(x, ', ' ORDER BY y DESC)`: the call's column name. */
function callName(
  fn: AggregateFn,
  args: readonly Expr[],
  distinct: boolean,
  star: boolean,
  filter: Expr | null,
  orderBy: AggregateCall['orderBy'],
  text: (e: Expr) => string,
): string {
  const keys = orderBy?.length ? args.slice(args.length - orderBy.length) : [];
  const values = args
    .slice(0, args.length - keys.length)
    .map(text)
    .join(', ');
  const order = keys.map((k, i) => {
    const { ascending, nullsFirst } = orderBy![i]!;
    return `${text(k)}${ascending ? '' : ' DESC'}${nullsFirst === ascending ? (nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : ''}`;
  });
  const inner = star
    ? '*'
    : `${distinct ? 'DISTINCT ' : ''}${values}${order.length ? ` ORDER BY ${order.join(', ')}` : ''}`;
  return `${fn}(${inner})${filter ? ` FILTER (WHERE ${text(filter)})` : ''}`;
}

/** The Aggregate node's group fields: plain columns keep their name and qualifier. */
export function groupFields(groupBy: readonly Expr[]): Field[] {
  return groupBy.map((g) =>
    g.kind === 'column'
      ? { name: g.name, qualifier: g.qualifier, type: g.type, nullable: true }
      : { name: exprText(g), qualifier: null, type: g.type, nullable: true },
  );
}

/**
 * Rewrites an expression bound over the input so that it reads the Aggregate's output: a subtree equal
 * to a GROUP BY expression becomes that group column; aggregate columns stay; any other input column is
 * an error (PostgreSQL's "must appear in the GROUP BY clause").
 */
export function overAggregate(
  e: Expr,
  groupBy: readonly Expr[],
  fields: readonly Field[],
  aggNames: ReadonlySet<string>,
): Expr {
  const keys = groupBy.map(exprText);
  const visit = (x: Expr): Expr => {
    const at = keys.indexOf(exprText(x));
    if (at >= 0) {
      const f = fields[at]!;
      return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
    }
    if (x.kind === 'column') {
      if (x.qualifier === null && aggNames.has(x.name)) return x;
      const shown = x.qualifier ? `${x.qualifier}.${x.name}` : x.name;
      throw new PlanError(`column "${shown}" must appear in the GROUP BY clause or be used in an aggregate function`);
    }
    const kids = exprChildren(x);
    return kids.length === 0 ? x : withChildren(x, kids.map(visit));
  };
  return visit(e);
}
