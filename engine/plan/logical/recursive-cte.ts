// `RecursiveCte` and `WorkTableScan`: a WITH RECURSIVE query, iterated to a fixpoint over its working table.
import type { Schema } from '../types.js';
import type { LogicalPlan } from './index.js';

/**
 * `anchor UNION [ALL] recursive`: `anchor` runs once; `recursive` runs again and again, each time reading the
 * rows the previous run produced (its `WorkTableScan` of the same `id`), until a run produces none. With
 * `all: false` a row already produced is dropped. Both terms output `schema`'s column types in order (the binder
 * casts them). Rules treat the node as a leaf: the optimizer rewrites each term on its own.
 */
export interface RecursiveCte {
  readonly kind: 'recursive_cte';
  readonly id: number;
  readonly name: string;
  readonly all: boolean;
  readonly anchor: LogicalPlan;
  readonly recursive: LogicalPlan;
  /** The CTE's columns, qualified with its name. */
  readonly schema: Schema;
}

/** Inside a `RecursiveCte`'s recursive term: the rows its previous iteration produced (a leaf). */
export interface WorkTableScan {
  readonly kind: 'work_table_scan';
  readonly id: number;
  readonly name: string;
  readonly alias: string;
  /** The CTE's columns, requalified with `alias` (and renamed by a column alias list). */
  readonly schema: Schema;
}
