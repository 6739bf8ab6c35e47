// `filterSpec`: a Filter's predicate as `FilterExec` runs it: conjuncts it can evaluate as selection steps over
// column values in place (comparisons with numbers, column pairs, small integer lists, text literals), the rest
// as one compiled predicate.
import type { CmpOp } from '../arrow/kernels/numeric.js';
import type { UpperOp } from '../arrow/kernels/select-compare.js';
import { type ColumnExpr, conjoin, type Expr, type LiteralExpr, splitConjuncts } from '../plan/expr/index.js';
import { type Schema, sameType } from '../plan/types.js';
import { and } from './expr/logic.js';
import { CMP_OPS, columnIndex, compileExpr, literalComparison, type PhysicalExpr } from './expr/physical-expr.js';
import { mayRaise } from './expr/short-circuit.js';
import type { ColumnsStep, CompareStep, FilterSpec, InTableStep, TextStep } from './operators/filter-exec.js';

/**
 * Conjuncts `column op number`, `column op column` (one numeric type) and `text [NOT] IN / = / <> literals` become
 * selection steps, in that order (each kind in its written order: comparisons with numbers are the cheapest and
 * usually the most selective); the rest stays one predicate.
 */
export function filterSpec(predicate: Expr, schema: Schema): FilterSpec {
  const numbers: CompareStep[] = [];
  const pairs: ColumnsStep[] = [];
  const texts: TextStep[] = [];
  const tables: InTableStep[] = [];
  const rest: Expr[] = [];
  const at = (c: ColumnExpr) => columnIndex(schema, c.qualifier, c.name);
  for (const c of splitConjuncts(predicate)) {
    const cmp = literalComparison(c);
    const pair = cmp === null ? columnPair(c) : null;
    const text = cmp === null && pair === null ? textLiterals(c) : null;
    const list = cmp === null && pair === null && text === null ? integerList(c) : null;
    if (cmp?.operand.kind === 'column') {
      const column = at(cmp.operand);
      numbers.push({
        kind: 'compare',
        column,
        op: cmp.op,
        value: cmp.value,
        upper: null,
        fallback: compileExpr(c, schema),
      });
    } else if (pair !== null) {
      const [left, op, right] = pair;
      pairs.push({ kind: 'columns', left: at(left), op, right: at(right), fallback: compileExpr(c, schema) });
    } else if (text !== null) {
      const { column, literals, negated, prefix } = text;
      texts.push({ kind: 'text', column: at(column), literals, negated, prefix, fallback: compileExpr(c, schema) });
    } else if (list !== null) {
      const { column, lo, table, negated } = list;
      tables.push({ kind: 'in-table', column: at(column), lo, table, negated, fallback: compileExpr(c, schema) });
    } else rest.push(c);
  }
  const restExpr = conjoin(rest);
  return {
    steps: [...fuseRanges(numbers), ...tables, ...pairs, ...texts],
    rest: restExpr ? compileExpr(restExpr, schema) : null,
    restMayRaise: restExpr !== null && mayRaise(restExpr),
  };
}

/** Stored values compare as they are within these types (floats are left out: NaN sorts above every number). */
const PAIR_KINDS = new Set(['int32', 'int64', 'date', 'timestamp', 'decimal']);

/** `a op b` over two columns of one such type, or null. */
function columnPair(e: Expr): [ColumnExpr, CmpOp, ColumnExpr] | null {
  if (e.kind !== 'binary' || e.left.kind !== 'column' || e.right.kind !== 'column') return null;
  if (!CMP_OPS.has(e.op)) return null;
  if (!sameType(e.left.type, e.right.type) || !PAIR_KINDS.has(e.left.type.id)) return null;
  return [e.left, e.op as CmpOp, e.right];
}

interface TextLiterals {
  readonly column: ColumnExpr;
  readonly literals: string[];
  readonly negated: boolean;
  readonly prefix: number | null;
}

/**
 * `text = 'x'`, `text <> 'x'` (either order), `text [NOT] IN ('x', ...)` with no NULL in the list, or null; `text`
 * a column, or `substring(column, 1, L)` when every literal is L ASCII characters (its first L bytes are then
 * compared: a shorter value or one with a non-ASCII character there equals none of them).
 */
function textLiterals(e: Expr): TextLiterals | null {
  const isText = (x: Expr): x is LiteralExpr => x.kind === 'literal' && typeof x.value === 'string';
  const operand = (x: Expr, literals: string[], negated: boolean): TextLiterals | null => {
    if (x.kind === 'column' && x.type.id === 'utf8') return { column: x, literals, negated, prefix: null };
    const p = prefixOf(x);
    const fits = (s: string) => s.length === p?.length && [...s].every((c) => c.charCodeAt(0) < 0x80);
    return p !== null && literals.every(fits) ? { column: p.column, literals, negated, prefix: p.length } : null;
  };
  if (e.kind === 'in_list' && e.list.every(isText))
    return operand(
      e.expr,
      e.list.map((x) => (x as LiteralExpr).value as string),
      e.negated,
    );
  if (e.kind !== 'binary' || (e.op !== '=' && e.op !== '<>')) return null;
  const [x, literal] = isText(e.right) ? [e.left, e.right] : [e.right, e.left];
  return isText(literal) ? operand(x, [literal.value as string], e.op === '<>') : null;
}

/** `substring(column, 1, L)` (or `substr`) of a text column with a constant L ≥ 1, or null. */
function prefixOf(e: Expr): { column: ColumnExpr; length: number } | null {
  if (e.kind !== 'call' || (e.name !== 'substring' && e.name !== 'substr') || e.args.length !== 3) return null;
  const [column, start, count] = e.args as [Expr, Expr, Expr];
  if (column.kind !== 'column' || column.type.id !== 'utf8') return null;
  if (start.kind !== 'literal' || start.value !== 1 || count.kind !== 'literal') return null;
  const length = count.value;
  return typeof length === 'number' && Number.isInteger(length) && length >= 1 ? { column, length } : null;
}

/** Integer lists spanning at most this many values become a lookup table (`InTableStep`). */
const MAX_TABLE_SPAN = 4096;

/**
 * `number [NOT] IN (integers)` with no NULL in the list, the literals of the column's type (stored values: scaled
 * decimals, days for dates), as a table over [lo, lo + span); null otherwise.
 */
function integerList(e: Expr): { column: ColumnExpr; lo: number; table: Uint8Array; negated: boolean } | null {
  if (e.kind !== 'in_list' || e.expr.kind !== 'column' || e.list.length === 0) return null;
  const column = e.expr;
  if (!PAIR_KINDS.has(column.type.id)) return null;
  const values: number[] = [];
  for (const x of e.list) {
    if (x.kind !== 'literal' || typeof x.value !== 'number' || !Number.isInteger(x.value)) return null;
    if (!sameType(x.type, column.type)) return null;
    values.push(x.value);
  }
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo + 1;
  if (span > MAX_TABLE_SPAN) return null;
  const table = new Uint8Array(span);
  for (const v of values) table[v - lo] = 1;
  return { column, lo, table, negated: e.negated };
}

/**
 * A column's one lower bound (`>`, `>=`) and one upper bound (`<`, `<=`) become one range step, placed where the
 * first of the two was: a date range is then tested once per row. Columns with other or more steps keep them.
 */
function fuseRanges(steps: CompareStep[]): CompareStep[] {
  const byColumn = new Map<number, CompareStep[]>();
  for (const s of steps) byColumn.set(s.column, [...(byColumn.get(s.column) ?? []), s]);
  const out: CompareStep[] = [];
  for (const step of steps) {
    const same = byColumn.get(step.column)!;
    const lower = same.length === 2 ? same.find((s) => s.op === '>' || s.op === '>=') : undefined;
    const upper = same.length === 2 ? same.find((s) => s.op === '<' || s.op === '<=') : undefined;
    if (lower === undefined || upper === undefined) out.push(step);
    else if (step === same[0]) {
      const both: PhysicalExpr = {
        evaluate: (b) => and(lower.fallback.evaluate(b), upper.fallback.evaluate(b)),
      };
      const hi = { op: upper.op as UpperOp, value: upper.value };
      out.push({ kind: 'compare', column: step.column, op: lower.op, value: lower.value, upper: hi, fallback: both });
    }
  }
  return out;
}
