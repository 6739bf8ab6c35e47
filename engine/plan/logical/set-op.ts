// Set-operation nodes: `Union` (UNION ALL of n inputs) and `SetOp` (INTERSECT / EXCEPT, with or without ALL).
import type { Schema } from '../types.js';
import type { LogicalPlan } from './index.js';

/**
 * UNION ALL: the rows of every input, input after input. Inputs have the output's column types (the binder
 * casts each arm); their column names may differ: columns match by position and the names are the first
 * arm's. UNION without ALL is an Aggregate with no aggregates over a Union.
 */
export interface Union {
  readonly kind: 'union';
  readonly inputs: readonly LogicalPlan[];
  readonly schema: Schema;
}

export type SetOpKind = 'intersect' | 'except';

/**
 * INTERSECT / EXCEPT of two inputs with the output's column types, matched by position. Rows compare
 * whole, NULL equal to NULL. Without ALL the result holds each qualifying row once; with ALL a row that
 * occurs l times on the left and r times on the right occurs min(l, r) times (INTERSECT) or max(l - r, 0)
 * times (EXCEPT).
 */
export interface SetOp {
  readonly kind: 'set_op';
  readonly op: SetOpKind;
  readonly all: boolean;
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  readonly schema: Schema;
}
