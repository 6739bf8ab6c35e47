// `ScalarFunction`: one SQL function as a small self-describing object (name, signature, kernel).
import type { Column } from '../arrow/column.js';
import type { DataType } from '../plan/types.js';

/** What a signature asks of the binder: cast the arguments to `args`, and the call returns `returns`. */
export interface Resolved {
  readonly args: readonly DataType[];
  readonly returns: DataType;
}

export interface ScalarFunction {
  /** The SQL name, snake_case. */
  readonly name: string;
  /**
   * Resolves argument types, or returns an error message naming what is wrong. `constants[i]` is argument i's
   * value when it is a literal (undefined otherwise), for types that depend on it: round(x, 2), EXTRACT(field …).
   */
  signature(args: readonly DataType[], constants: readonly unknown[]): Resolved | string;
  /** Evaluates over columns already cast to the resolved types. */
  evaluate(args: readonly Column[], length: number, returns: DataType): Column;
  /** False for functions that see NULL arguments themselves (coalesce); true means NULL in, NULL out. */
  readonly strict?: boolean;
}
