// Logical plan nodes: plain data trees built by the binder, rewritten by the optimizer, printed by EXPLAIN.
import type { Expr } from '../expr/index.js';
import { BOOL, type DataType, type Field, type Schema } from '../types.js';
import type { RecursiveCte, WorkTableScan } from './recursive-cte.js';
import type { SetOp, Union } from './set-op.js';

export { GROUPING_ID_COLUMN, groupingValue } from './grouping.js';
export type { RecursiveCte, WorkTableScan } from './recursive-cte.js';
export type { SetOp, SetOpKind, Union } from './set-op.js';

import { type Window, windowSchema } from './window.js';
import type { CreateSchema, CreateTable, DropTable, Insert } from './write.js';

export type { Window } from './window.js';
export type { CreateSchema, CreateTable, DropTable, Insert } from './write.js';
export { COUNT_SCHEMA, STATUS_SCHEMA } from './write.js';

/** Reads a table. `columns`, `filters` and `limit` are filled in by the push-down rules. */
export interface Scan {
  readonly kind: 'scan';
  readonly table: string;
  /** The name columns are qualified with (the alias, or the table name). */
  readonly alias: string;
  /** The table's full schema, qualified with `alias`. */
  readonly tableSchema: Schema;
  /** Projected column names; `null` = all. */
  readonly columns: readonly string[] | null;
  /** Conjuncts the provider may use to skip data (row-group pruning); a Filter above still applies them. */
  readonly filters: readonly Expr[];
  readonly limit: number | null;
  readonly schema: Schema;
}

/** Literal rows (a FROM-less SELECT reads one row with no columns). */
export interface Values {
  readonly kind: 'values';
  readonly rows: readonly (readonly Expr[])[];
  readonly schema: Schema;
}

export interface Filter {
  readonly kind: 'filter';
  readonly input: LogicalPlan;
  readonly predicate: Expr;
  readonly schema: Schema;
}

export interface Project {
  readonly kind: 'project';
  readonly input: LogicalPlan;
  readonly exprs: readonly Expr[];
  readonly schema: Schema;
}

export type AggregateFn =
  | 'count'
  | 'sum'
  | 'avg'
  | 'min'
  | 'max'
  | 'stddev_samp'
  | 'stddev_pop'
  | 'var_samp'
  | 'var_pop'
  | 'bool_and'
  | 'bool_or'
  | 'string_agg'
  | 'any_value';

export interface AggregateCall {
  readonly fn: AggregateFn;
  /** Empty for COUNT(*); string_agg: [value, separator, ...ORDER BY keys]. */
  readonly args: readonly Expr[];
  readonly distinct: boolean;
  /** Directions of the ORDER BY keys inside the call (string_agg), which are the last `args`. */
  readonly orderBy?: readonly { readonly ascending: boolean; readonly nullsFirst: boolean }[];
  /** `FILTER (WHERE …)`: only rows where it is true reach the aggregate. */
  readonly filter: Expr | null;
  readonly type: DataType;
  /** Output column name, e.g. `sum(l_quantity)`. */
  readonly name: string;
}

export interface Aggregate {
  readonly kind: 'aggregate';
  readonly input: LogicalPlan;
  readonly groupBy: readonly Expr[];
  /**
   * GROUPING SETS / ROLLUP / CUBE: each set lists the indexes into `groupBy` it groups by; the other group
   * columns are NULL in its rows. Absent = one set of every group column (a plain GROUP BY).
   */
  readonly groupingSets?: readonly (readonly number[])[];
  readonly aggregates: readonly AggregateCall[];
  /**
   * Group columns first, then one column per aggregate; with `groupingSets`, a last int32 column
   * `GROUPING_ID_COLUMN`: PostgreSQL's GROUPING() of all group columns (bit set = column not grouped).
   */
  readonly schema: Schema;
}

export interface SortKey {
  readonly expr: Expr;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

export interface Sort {
  readonly kind: 'sort';
  readonly input: LogicalPlan;
  readonly keys: readonly SortKey[];
  /** Keep only the first `fetch` rows (set by push-down-limit: executed as TopK). */
  readonly fetch: number | null;
  readonly schema: Schema;
}

export interface Limit {
  readonly kind: 'limit';
  readonly input: LogicalPlan;
  readonly skip: number;
  readonly fetch: number | null;
  readonly schema: Schema;
}

/**
 * How a join combines its sides. `semi`/`anti` keep left rows with/without a match (left columns only);
 * `mark` keeps every left row and appends one boolean column saying whether it matched.
 */
export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'semi' | 'anti' | 'mark';

export interface Join {
  readonly kind: 'join';
  readonly joinType: JoinType;
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  /** The join condition over both sides' columns; `null` = every pair (a cross join). */
  readonly on: Expr | null;
  /**
   * `x [NOT] IN (subquery)` semantics for anti and mark joins: the first conjunct of `on` is the IN equality,
   * and a NULL on either side of it makes the answer unknown rather than false.
   */
  readonly nullAware: boolean;
  /** A scalar subquery's join: more than one match for a left row is an error. */
  readonly singleMatch: boolean;
  /** Semi/anti joins only: hash the (smaller) left side and stream the right one (see swap-join-sides). */
  readonly buildLeft: boolean;
  /** The boolean column a mark join appends. */
  readonly mark: Field | null;
  /** `JOIN LATERAL`: the right side reads the left's columns (as outer references) until decorrelated. */
  readonly lateral?: boolean;
  readonly schema: Schema;
}

/**
 * A common table expression referenced more than once: every reference with the same `id` shares one
 * computation of `plan`. The optimizer rewrites `plan` once, not per reference; rules treat the node as a leaf.
 */
export interface CteScan {
  readonly kind: 'cte_scan';
  readonly id: number;
  readonly name: string;
  readonly alias: string;
  readonly plan: LogicalPlan;
  /** `plan`'s columns, requalified with `alias` (and renamed by a column list). */
  readonly schema: Schema;
}

export type LogicalPlan =
  | Scan
  | Values
  | Filter
  | Project
  | Aggregate
  | Sort
  | Limit
  | Join
  | CteScan
  | Union
  | SetOp
  | Window
  | RecursiveCte
  | WorkTableScan
  | Insert
  | CreateTable
  | DropTable
  | CreateSchema;

export function planChildren(p: LogicalPlan): LogicalPlan[] {
  if (p.kind === 'join') return [p.left, p.right];
  if (p.kind === 'union') return [...p.inputs];
  if (p.kind === 'set_op') return [p.left, p.right];
  return isLeaf(p) ? [] : [p.input];
}

/** Nodes with no children for rules to rewrite (a CTE's or a recursive query's bodies are optimized apart). */
function isLeaf(
  p: LogicalPlan,
): p is Scan | Values | CteScan | RecursiveCte | WorkTableScan | CreateTable | DropTable | CreateSchema {
  const k = p.kind;
  if (k === 'create_table' || k === 'drop_table' || k === 'create_schema') return true;
  return k === 'scan' || k === 'values' || k === 'cte_scan' || k === 'recursive_cte' || k === 'work_table_scan';
}

/** Rebuilds `p` over new children, recomputing schemas that derive from the input. */
export function withInputs(p: LogicalPlan, inputs: readonly LogicalPlan[]): LogicalPlan {
  if (isLeaf(p)) return p;
  if (p.kind === 'join') return makeJoin(p.joinType, inputs[0]!, inputs[1]!, p.on, p);
  if (p.kind === 'union') return { ...p, inputs };
  if (p.kind === 'set_op') return { ...p, left: inputs[0]!, right: inputs[1]! };
  const input = inputs[0]!;
  if (p.kind === 'filter' || p.kind === 'sort' || p.kind === 'limit') return { ...p, input, schema: input.schema };
  if (p.kind === 'window') return { ...p, input, schema: windowSchema(input.schema, p.calls) };
  return { ...p, input };
}

/** Bottom-up rewrite of a plan tree. */
export function transformPlan(p: LogicalPlan, f: (p: LogicalPlan) => LogicalPlan): LogicalPlan {
  const kids = planChildren(p);
  const next =
    kids.length === 0
      ? p
      : withInputs(
          p,
          kids.map((k) => transformPlan(k, f)),
        );
  return f(next);
}

export function makeScan(table: string, alias: string, tableSchema: Schema): Scan {
  return { kind: 'scan', table, alias, tableSchema, columns: null, filters: [], limit: null, schema: tableSchema };
}

export function makeFilter(input: LogicalPlan, predicate: Expr): Filter {
  return { kind: 'filter', input, predicate, schema: input.schema };
}

export function makeProject(input: LogicalPlan, exprs: readonly Expr[], fields: readonly Field[]): Project {
  return { kind: 'project', input, exprs, schema: { fields } };
}

export function makeSort(input: LogicalPlan, keys: readonly SortKey[]): Sort {
  return { kind: 'sort', input, keys, fetch: null, schema: input.schema };
}

export function makeLimit(input: LogicalPlan, skip: number, fetch: number | null): Limit {
  return { kind: 'limit', input, skip, fetch, schema: input.schema };
}

/** The output schema of a join: nullable sides marked so, semi/anti keep the left, mark appends its column. */
export function joinSchema(joinType: JoinType, left: Schema, right: Schema, mark: Field | null): Schema {
  const nullable = (fs: readonly Field[]) => fs.map((f) => (f.nullable ? f : { ...f, nullable: true }));
  switch (joinType) {
    case 'semi':
    case 'anti':
      return left;
    case 'mark':
      return { fields: [...left.fields, mark ?? { name: 'mark', qualifier: null, type: BOOL, nullable: true }] };
    case 'left':
      return { fields: [...left.fields, ...nullable(right.fields)] };
    case 'right':
      return { fields: [...nullable(left.fields), ...right.fields] };
    case 'full':
      return { fields: [...nullable(left.fields), ...nullable(right.fields)] };
    case 'inner':
      return { fields: [...left.fields, ...right.fields] };
  }
}

export interface JoinFlags {
  readonly nullAware?: boolean;
  readonly singleMatch?: boolean;
  readonly buildLeft?: boolean;
  readonly mark?: Field | null;
  readonly lateral?: boolean;
}

export function makeJoin(
  joinType: JoinType,
  left: LogicalPlan,
  right: LogicalPlan,
  on: Expr | null,
  flags: JoinFlags = {},
): Join {
  const mark = joinType === 'mark' ? (flags.mark ?? null) : null;
  return {
    kind: 'join',
    joinType,
    left,
    right,
    on,
    nullAware: flags.nullAware ?? false,
    singleMatch: flags.singleMatch ?? false,
    buildLeft: (joinType === 'semi' || joinType === 'anti') && (flags.buildLeft ?? false),
    mark,
    ...(flags.lateral ? { lateral: true } : {}),
    schema: joinSchema(joinType, left.schema, right.schema, mark),
  };
}

/** `plan` under a projection giving exactly `schema`'s columns (by qualifier and name), unless it already does. */
export function projectToSchema(plan: LogicalPlan, schema: Schema): LogicalPlan {
  const want = schema.fields;
  const have = plan.schema.fields;
  const same =
    want.length === have.length && want.every((f, i) => f.name === have[i]!.name && f.qualifier === have[i]!.qualifier);
  if (same) return plan;
  return makeProject(
    plan,
    want.map((f): Expr => ({ kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type })),
    want,
  );
}

/** The fields of `schema` restricted to `names`, in that order. */
export function projectSchema(schema: Schema, names: readonly string[]): Schema {
  return { fields: names.map((n) => schema.fields.find((f) => f.name === n)!) };
}
