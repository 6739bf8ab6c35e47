// `OptimizerRule`: one named rewrite of a logical plan; the output schema must equal the input's.
import type { Expr, LiteralExpr } from '../plan/expr/index.js';
import type { LogicalPlan } from '../plan/logical/index.js';

export interface OptimizerContext {
  /** Evaluates an expression without columns (wired to the executor by engine/index.ts); throws on error. */
  readonly evaluateConstant: (e: Expr) => LiteralExpr;
  /** A table's row count when its provider knows it (join ordering). */
  readonly tableRows?: (table: string) => number | null;
  /** An upper bound on a table column's distinct values, when the provider knows one. */
  readonly columnDistinct?: (table: string, column: string) => number | null;
  /** Whether a table column is known to hold no NULL and no value twice (false when unknown). */
  readonly columnUnique?: (table: string, column: string) => boolean;
}

export interface OptimizerRule {
  /** Equals the file stem, e.g. `push-down-filter`; used to disable the rule and in timings. */
  readonly name: string;
  apply(plan: LogicalPlan, ctx: OptimizerContext): LogicalPlan;
}
