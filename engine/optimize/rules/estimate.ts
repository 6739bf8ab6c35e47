// Cardinality estimates for join ordering: table row counts from the providers' statistics, textbook
// selectivities for predicates, and key domains (how many distinct values a join key can take).
import { columnsOf, type Expr, splitConjuncts } from '../../plan/expr/index.js';
import type { LogicalPlan } from '../../plan/logical/index.js';
import { fieldIndex } from '../../plan/types.js';
import type { OptimizerContext } from '../rule.js';

/** Rows assumed for a table whose provider gives no count. */
const UNKNOWN_TABLE_ROWS = 1000;
/** Iterations assumed for a recursive query, and rows for one iteration's working table. */
const RECURSIVE_ITERATIONS_GUESS = 10;
const WORK_TABLE_ROWS_GUESS = 100;

export function estimateRows(p: LogicalPlan, ctx: OptimizerContext): number {
  switch (p.kind) {
    case 'scan':
      return ctx.tableRows?.(p.table) ?? UNKNOWN_TABLE_ROWS;
    case 'values':
      return p.rows.length;
    case 'filter':
      return estimateRows(p.input, ctx) * selectivity(p.predicate);
    case 'project':
    case 'sort':
    case 'window':
      return estimateRows(p.input, ctx);
    case 'limit':
      return Math.min(estimateRows(p.input, ctx), p.fetch ?? Number.POSITIVE_INFINITY);
    case 'aggregate': {
      const input = estimateRows(p.input, ctx);
      if (p.groupBy.length === 0) return 1;
      const groups = p.groupBy.reduce((n, g) => n * keyDomain(g, [p.input], ctx), 1);
      return Math.max(1, Math.min(input, groups));
    }
    case 'cte_scan':
      return estimateRows(p.plan, ctx);
    // A recursive query's size is unknown until it runs: its first term's rows stand for each iteration's.
    case 'recursive_cte':
      return estimateRows(p.anchor, ctx) * RECURSIVE_ITERATIONS_GUESS;
    case 'work_table_scan':
      return WORK_TABLE_ROWS_GUESS;
    case 'insert':
    case 'create_table':
    case 'drop_table':
    case 'create_schema':
      return 1;
    case 'union':
      return p.inputs.reduce((n, i) => n + estimateRows(i, ctx), 0);
    case 'set_op':
      return estimateRows(p.left, ctx);
    case 'join': {
      const l = estimateRows(p.left, ctx);
      const r = estimateRows(p.right, ctx);
      switch (p.joinType) {
        case 'semi':
          return l * semiFraction(p.on, r, p.left, ctx);
        case 'anti':
          return l * 0.5;
        case 'mark':
        case 'left':
          return l;
        case 'right':
          return r;
        case 'full':
          return l + r;
        case 'inner':
          return p.on === null ? l * r : Math.max(1, equiJoinRows(l, r, splitConjuncts(p.on), [p.left, p.right], ctx));
      }
    }
  }
}

/**
 * |A ⋈ B| ≈ |A|·|B| / d, where d is the largest key domain among the equalities; an equality's domain is the
 * smaller of its two columns' domains (a foreign key meets a primary key). Other conditions halve the estimate.
 */
export function equiJoinRows(
  leftRows: number,
  rightRows: number,
  on: readonly Expr[],
  inputs: readonly LogicalPlan[],
  ctx: OptimizerContext,
): number {
  let divisor = 1;
  let factor = 1;
  for (const c of on) {
    if (c.kind === 'binary' && c.op === '=') {
      const d = Math.min(keyDomain(c.left, inputs, ctx), keyDomain(c.right, inputs, ctx));
      divisor = Math.max(divisor, d);
    } else factor *= 0.5;
  }
  return (leftRows * rightRows * factor) / divisor;
}

/** The share of left rows that find a match among `rightRows` rows: at most one per value of the left key. */
function semiFraction(on: Expr | null, rightRows: number, left: LogicalPlan, ctx: OptimizerContext): number {
  const eq = on ? splitConjuncts(on).find((c) => c.kind === 'binary' && c.op === '=') : undefined;
  if (eq?.kind !== 'binary') return 0.5;
  const inLeft = (x: Expr) =>
    columnsOf(x).every((c) =>
      left.schema.fields.some((f) => f.name === c.name && (c.qualifier === null || f.qualifier === c.qualifier)),
    );
  const key = inLeft(eq.left) ? eq.left : inLeft(eq.right) ? eq.right : null;
  if (key === null) return 0.5;
  const domain = keyDomain(key, [left], ctx);
  return Math.min(1, Math.max(rightRows, 1) / domain);
}

/** The fraction of rows a predicate is expected to keep. */
export function selectivity(e: Expr): number {
  switch (e.kind) {
    case 'binary':
      switch (e.op) {
        case 'and':
          return selectivity(e.left) * selectivity(e.right);
        case 'or': {
          const a = selectivity(e.left);
          const b = selectivity(e.right);
          return a + b - a * b;
        }
        case '=':
          return 0.1;
        case '<>':
          return 0.9;
        case '<':
        case '<=':
        case '>':
        case '>=':
          return 1 / 3;
        default:
          return 0.5;
      }
    case 'unary':
      if (e.op === 'not') return 1 - selectivity(e.expr);
      return e.op === 'is_null' ? 0.1 : 0.5;
    case 'like': {
      // A pattern that starts with literal text is a range of values; one that starts with a wildcard scans, and
      // keeps few rows when it must find a word of four or more characters ('%green%': 5% of TPC-H's part names).
      const p = e.pattern;
      const text = p.kind === 'literal' && typeof p.value === 'string' ? p.value : null;
      const prefixed = text !== null && !/^[%_]/.test(text);
      const word = text?.split(/[%_]/).some((run) => run.length >= 4) ?? false;
      const keep = prefixed || word ? 0.05 : 0.25;
      return e.negated ? 1 - keep : keep;
    }
    case 'in_list':
      return e.negated ? 0.9 : Math.min(0.5, 0.1 * e.list.length);
    case 'literal':
      return e.value === true ? 1 : 0;
    default:
      return 0.5;
  }
}

/**
 * How many distinct values a key expression can take: the row count of the table (or derived input) its column
 * comes from, before any filter, since a key column of a table has at most that many values.
 */
export function keyDomain(e: Expr, inputs: readonly LogicalPlan[], ctx: OptimizerContext): number {
  const cols = columnsOf(e);
  if (cols.length !== 1) return UNKNOWN_TABLE_ROWS;
  const c = cols[0]!;
  for (const input of inputs) {
    const found = sourceOf(input, c.qualifier, c.name);
    if (!found) continue;
    const { node, name } = found;
    const rows = estimateRows(node, ctx);
    const distinct = node.kind === 'scan' ? ctx.columnDistinct?.(node.table, name) : null;
    return Math.max(1, Math.min(rows, distinct ?? rows));
  }
  return UNKNOWN_TABLE_ROWS;
}

/** The node below filters and projections that produces the column (a scan, or the first other node). */
function sourceOf(p: LogicalPlan, qualifier: string | null, name: string): { node: LogicalPlan; name: string } | null {
  const has = (x: LogicalPlan) =>
    x.schema.fields.some((f) => f.name === name && (qualifier === null || f.qualifier === qualifier));
  if (!has(p)) return null;
  const here = { node: p, name };
  switch (p.kind) {
    case 'filter':
    case 'sort':
    case 'limit':
      return sourceOf(p.input, qualifier, name) ?? here;
    case 'project': {
      const at = fieldIndex(p.schema, qualifier, name);
      const e = p.exprs[at];
      if (e?.kind === 'column') return sourceOf(p.input, e.qualifier, e.name) ?? here;
      return here;
    }
    case 'join':
      return sourceOf(p.left, qualifier, name) ?? sourceOf(p.right, qualifier, name) ?? here;
    default:
      return here;
  }
}
