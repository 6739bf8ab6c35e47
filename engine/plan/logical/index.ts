// Logical plan nodes: plain data trees built by the binder, rewritten by the optimizer, printed by EXPLAIN.
import type { Expr } from '../expr/index.js';
import type { DataType, Field, Schema } from '../types.js';

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
  | 'string_agg';

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
  readonly aggregates: readonly AggregateCall[];
  /** Group columns first, then one column per aggregate. */
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

export type LogicalPlan = Scan | Values | Filter | Project | Aggregate | Sort | Limit;

export function planChildren(p: LogicalPlan): LogicalPlan[] {
  return p.kind === 'scan' || p.kind === 'values' ? [] : [p.input];
}

/** Rebuilds `p` over new children, recomputing schemas that derive from the input. */
export function withInputs(p: LogicalPlan, inputs: readonly LogicalPlan[]): LogicalPlan {
  if (p.kind === 'scan' || p.kind === 'values') return p;
  const input = inputs[0]!;
  if (p.kind === 'filter' || p.kind === 'sort' || p.kind === 'limit') return { ...p, input, schema: input.schema };
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

/** The fields of `schema` restricted to `names`, in that order. */
export function projectSchema(schema: Schema, names: readonly string[]): Schema {
  return { fields: names.map((n) => schema.fields.find((f) => f.name === n)!) };
}
