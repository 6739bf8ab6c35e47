// `TopKBound`: a TopK's current K-th first-key value as conjuncts a scan prunes with (a dynamic filter, as in
// DuckDB's and DataFusion's TopK): a row group whose min/max cannot beat the K-th row is not read at all.
import { type Column, exactAt, isValid, strings } from '../../arrow/column.js';
import type { SortSpec } from '../../arrow/kernels/compare-rows.js';
import type { ColumnExpr, Expr, LiteralValue } from '../../plan/expr/index.js';
import { BOOL, type DataType } from '../../plan/types.js';

/** Key types whose values become literals that row-group statistics compare exactly (`io/parquet/prune.ts`). */
const BOUND_TYPES = new Set(['int32', 'int64', 'float64', 'date', 'timestamp', 'utf8']);

/** Whether a TopK over a key of type `type` can publish a bound. */
export function isBoundable(type: DataType): boolean {
  return BOUND_TYPES.has(type.id);
}

/**
 * The rows that may still enter a TopK ordered first by `column`: once it holds K rows whose K-th key is v, a later
 * row enters only if its key sorts before v, or ties it (ties keep input order, so `<=` rather than `<`: the scan
 * may only skip what cannot match). NULLs sort first or last as the key says, so `OR col IS NULL` stays when they
 * sort first. Conjuncts over the scan's unqualified column, in `ScanRequest.filters`' form.
 */
export class TopKBound {
  readonly #column: ColumnExpr;
  readonly #spec: SortSpec;
  #filters: readonly Expr[] = [];

  constructor(column: string, type: DataType, spec: SortSpec) {
    this.#column = { kind: 'column', qualifier: null, name: column, type };
    this.#spec = spec;
  }

  /** The current conjuncts: none until the TopK holds K rows. */
  readonly filters = (): readonly Expr[] => this.#filters;

  /** Forgets the bound: an operator run again (a recursive term's next iteration) starts over. */
  reset(): void {
    this.#filters = [];
  }

  /** Records row `i` of the key column `col` as the TopK's K-th row. */
  tighten(col: Column, i: number): void {
    const column = this.#column;
    const isNull: Expr = { kind: 'unary', op: 'is_null', expr: column, type: BOOL };
    if (!isValid(col, i)) {
      // A NULL K-th key: with NULLS FIRST only more NULLs can tie it; with NULLS LAST anything may still beat it.
      this.#filters = this.#spec.nullsFirst ? [isNull] : [];
      return;
    }
    const value = valueAt(col, i);
    const op = this.#spec.ascending ? '<=' : '>=';
    const cmp: Expr = {
      kind: 'binary',
      op,
      left: column,
      right: { kind: 'literal', value, type: column.type },
      type: BOOL,
    };
    this.#filters = [this.#spec.nullsFirst ? { kind: 'binary', op: 'or', left: cmp, right: isNull, type: BOOL } : cmp];
  }
}

/** Row `i` of `col` as a literal value of the column's type (see `BOUND_TYPES`). */
function valueAt(col: Column, i: number): LiteralValue {
  switch (col.type.id) {
    case 'int64':
      return exactAt(col, i);
    case 'utf8':
      return strings(col)[i] as string;
    default:
      return (col.values as Int32Array | Float64Array)[i] as number;
  }
}
