// `peelGather`: an expression of one text column, evaluated over the column a join's output rows are gathered from
// (once per query) instead of over a copy of each batch's rows: gathering short strings from a build side costs
// ~150 ns a row in cache misses, testing them where they lie a few ns (Q14's p_type LIKE 'PROMO%').
import type { Batch } from '../../arrow/batch.js';
import type { Column } from '../../arrow/column.js';
import { gatheredFrom, textCodesOf } from '../../arrow/gathered-column.js';
import { take } from '../../arrow/kernels/take.js';
import { type CodedText, dictionaryColumn, type TextDictionary } from '../../arrow/text-dictionary.js';
import { columnsOf, type Expr, someExpr } from '../../plan/expr/index.js';
import type { Schema } from '../../plan/types.js';
import { mayRaiseOnRows } from './short-circuit.js';

/** Evaluating a row where it lies costs about this fraction of gathering it (text, measured on Q14). */
const GATHER_COST = 16;

/**
 * The index of the one text column `e` reads, when `e` may be evaluated over rows the query never asked for: it
 * computes something (not a bare column or literal), reads no other column, and cannot raise an error or vary
 * between calls (no casts of columns, calls, division). Otherwise -1.
 */
export function peelableColumn(
  e: Expr,
  schema: Schema,
  indexOf: (qualifier: string | null, name: string) => number,
): number {
  if (e.kind === 'column' || e.kind === 'literal') return -1;
  if (someExpr(e, (x) => x.kind === 'subquery' || x.kind === 'outer_column') || mayRaiseOnRows(e)) return -1;
  const cols = columnsOf(e);
  if (cols.length === 0) return -1;
  const at = indexOf(cols[0]!.qualifier, cols[0]!.name);
  if (schema.fields[at]!.type.id !== 'utf8') return -1;
  return cols.every((c) => indexOf(c.qualifier, c.name) === at) ? at : -1;
}

/**
 * `inner` (an expression of column `at` alone, see `peelableColumn`) evaluated once per distinct value when the
 * column (or the column its rows are gathered from) has a table dictionary and no NULL (`textCodesOf`), then read
 * per row by code; else over a gathered column's source once that source has fed two batches and enough rows to
 * pay for it, then read per batch by the gather's indices. A source seen in one batch only (a filter's output) is
 * never peeled: nothing would reuse its result.
 */
export function peelGather(at: number, inner: { evaluate(b: Batch): Column }): { evaluate(b: Batch): Column } {
  let source: Column | null = null;
  let batches = 0;
  let rows = 0;
  let whole: Column | null = null;
  let dictionary: TextDictionary | null = null;
  let perValue: Column | null = null;
  const byCode = (b: Batch, coded: CodedText, indices: Int32Array | null): Column => {
    if (coded.dictionary !== dictionary) {
      const d = coded.dictionary;
      const columns = b.columns.map((c, i) => (i === at ? dictionaryColumn(d) : c));
      perValue = inner.evaluate({ schema: b.schema, columns, length: d.size });
      dictionary = d;
    }
    const codes = coded.codes;
    const n = b.length;
    const rowCodes = new Int32Array(n);
    if (indices === null) for (let i = 0; i < n; i++) rowCodes[i] = codes[i]!;
    else for (let i = 0; i < n; i++) rowCodes[i] = codes[indices[i]!]!;
    return take(perValue!, rowCodes, n);
  };
  return {
    evaluate(b) {
      const col = b.columns[at]!;
      const g = gatheredFrom(col);
      // Padded rows (outer joins) are NULL input, on which the expression need not be NULL.
      if (g?.padded === true) return inner.evaluate(b);
      const base = g?.source ?? col;
      // NULL rows hold some value's code: a column with NULLs is evaluated as below.
      const coded = base.valid === null ? textCodesOf(base) : null;
      if (coded !== null) return byCode(b, coded, g?.indices ?? null);
      if (g === null) return inner.evaluate(b);
      if (g.source !== source) {
        source = g.source;
        batches = 0;
        rows = 0;
        whole = null;
      }
      if (whole === null) {
        batches++;
        rows += b.length;
        if (batches < 2 || rows * GATHER_COST < source.length) return inner.evaluate(b);
        const columns = b.columns.map((c, i) => (i === at ? source! : c));
        whole = inner.evaluate({ schema: b.schema, columns, length: source.length });
      }
      return take(whole, g.indices, b.length);
    },
  };
}
