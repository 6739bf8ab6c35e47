// `compileExpr`: a logical expression -> a `PhysicalExpr` that evaluates a whole batch to one column.
import { arithmeticAtColumn } from '../../arrow/arithmetic-at.js';
import type { Batch } from '../../arrow/batch.js';
import { type Column, constantColumn, makeColumn, utf8BytesOf } from '../../arrow/column.js';
import { gatheredFrom } from '../../arrow/gathered-column.js';
import { cast } from '../../arrow/kernels/cast.js';
import { compareScalar, flipCmp } from '../../arrow/kernels/compare-scalar.js';
import { arithmetic, arithmeticScalar, compare, exactArithAt } from '../../arrow/kernels/numeric.js';
import { compareUtf8Literal } from '../../arrow/kernels/utf8-compare.js';
import { narrowOf } from '../../arrow/narrow-values.js';
import { InternalError, NotSupportedError } from '../../errors.js';
import { lookupFunction } from '../../functions/registry.js';
import { exprText } from '../../plan/expr/display.js';
import type {
  ArithmeticOp,
  BinaryExpr,
  ComparisonOp,
  Expr,
  IntervalValue,
  LiteralExpr,
} from '../../plan/expr/index.js';
import { type DataType, type Schema, sameType } from '../../plan/types.js';
import { evaluateCase } from './case.js';
import { lazyCoalesce } from './coalesce.js';
import { canFuse, fusedArithmetic } from './fused-arith.js';
import { evaluateInList } from './in-list.js';
import { compileLike } from './like.js';
import { isPredicate, negate, not } from './logic.js';
import { peelableColumn, peelGather } from './peel.js';
import { mayRaise, mayRaiseOnRows, shortCircuit } from './short-circuit.js';
import { addInterval, addIntervalRows, addIntervals, intervalSpans, mapIntervals, negateInterval } from './temporal.js';
import { checkedTemporal } from './temporal-range.js';
import { matchUtf8Literals } from './utf8-match.js';

export interface PhysicalExpr {
  evaluate(batch: Batch): Column;
}

/** Index of a column reference in `schema`; the binder guarantees it exists. */
export function columnIndex(schema: Schema, qualifier: string | null, name: string): number {
  let at = schema.fields.findIndex((f) => f.name === name && (qualifier === null || f.qualifier === qualifier));
  if (at < 0 && qualifier !== null) at = schema.fields.findIndex((f) => f.name === name);
  if (at < 0)
    throw new InternalError(
      `column ${qualifier ? `${qualifier}.` : ''}${name} not in input [${schema.fields.map((f) => f.name)}]`,
    );
  return at;
}

const isTextLiteral = (e: Expr): e is LiteralExpr =>
  e.kind === 'literal' && e.type.id === 'utf8' && typeof e.value === 'string';

/** `text op 'literal'`, on UTF-8 bytes when the column holds them (the text side is evaluated once either way). */
function textCompare(col: PhysicalExpr, op: ComparisonOp, literal: string): PhysicalExpr {
  return {
    evaluate(b) {
      const x = col.evaluate(b);
      const bytes = utf8BytesOf(x);
      let hits: Uint8Array | null = null;
      if (bytes !== null && (op === '=' || op === '<>')) {
        hits = matchUtf8Literals(x, [literal]);
        if (hits !== null && op === '<>') for (let i = 0; i < hits.length; i++) hits[i] = 1 - hits[i]!;
      } else if (bytes !== null) hits = compareUtf8Literal(op, bytes, x.length, literal);
      if (hits === null) return compare(op, x, constantColumn(x.type, literal, x.length));
      return makeColumn({ id: 'bool' }, hits, x.valid, x.length);
    },
  };
}

/** Kinds whose values compare as plain numbers when both sides have the same type. */
const SCALAR_KINDS = new Set(['int32', 'int64', 'float64', 'date', 'timestamp', 'decimal']);

/**
 * `operand op literal` (either order, the operator flipped when the literal comes first) over numbers of one type,
 * with the literal's stored value (scaled for decimals); null for any other expression.
 */
export function literalComparison(e: Expr): { operand: Expr; op: ComparisonOp; value: number } | null {
  if (e.kind !== 'binary' || !CMP_OPS.has(e.op)) return null;
  const op = e.op as ComparisonOp;
  const [operand, lit, cmp] =
    e.right.kind === 'literal'
      ? [e.left, e.right, op]
      : e.left.kind === 'literal'
        ? [e.right, e.left, flipCmp(op)]
        : [];
  if (!operand || lit?.kind !== 'literal' || typeof lit.value !== 'number' || !SCALAR_KINDS.has(lit.type.id))
    return null;
  if (!sameType(e.left.type, e.right.type)) return null;
  return { operand, op: cmp as ComparisonOp, value: lit.value };
}

/** The comparison operators of a binary expression. */
export const CMP_OPS: ReadonlySet<string> = new Set(['=', '<>', '<', '<=', '>', '>=']);

/**
 * `shared`: expressions compiled together (an aggregate's keys and arguments) pass one map, and a subexpression
 * that occurs in several of them (q1's `l_extendedprice * (1 - l_discount)`) is evaluated once per batch.
 */
export function compileExpr(e: Expr, schema: Schema, shared?: Map<string, PhysicalExpr>): PhysicalExpr {
  if (shared === undefined || e.kind === 'column' || e.kind === 'literal') return compilePeeled(e, schema, shared);
  const key = `${exprText(e)} :: ${JSON.stringify(e.type)}`;
  let x = shared.get(key);
  if (x === undefined) {
    x = memoized(compilePeeled(e, schema, shared));
    shared.set(key, x);
  }
  return x;
}

/** Set while compiling an expression that is peeled as a whole (`peelGather`): its parts are not peeled again. */
let peeling = false;

function compilePeeled(e: Expr, schema: Schema, shared: Map<string, PhysicalExpr> | undefined): PhysicalExpr {
  const at = peeling ? -1 : peelableColumn(e, schema, (q, name) => columnIndex(schema, q, name));
  if (at < 0) return compileNode(e, schema, shared);
  peeling = true;
  try {
    return peelGather(at, compileNode(e, schema, shared));
  } finally {
    peeling = false;
  }
}

/** Remembers the column of the last batch (batches are immutable; a sub-batch is another object). */
function memoized(inner: PhysicalExpr): PhysicalExpr {
  let last: Batch | null = null;
  let column: Column | null = null;
  return {
    evaluate(b) {
      if (b !== last) {
        column = inner.evaluate(b);
        last = b;
      }
      return column!;
    },
  };
}

function compileNode(e: Expr, schema: Schema, shared: Map<string, PhysicalExpr> | undefined): PhysicalExpr {
  switch (e.kind) {
    case 'column': {
      const at = columnIndex(schema, e.qualifier, e.name);
      return { evaluate: (b) => b.columns[at]! };
    }
    case 'literal': {
      const value = e.value;
      // Columns are never written once made, so batches of one length share one constant column (a fresh one
      // per batch cost q1 a 0.5 MB allocation and fill per literal per batch).
      let last: Column | null = null;
      return {
        evaluate: (b) => {
          if (last === null || last.length !== b.length || isDetached(last))
            last = constantColumn(e.type, value, b.length);
          return last;
        },
      };
    }
    case 'outer_column':
    case 'subquery':
      // Unnesting turns every subquery into a join; one left here is a form it could not rewrite.
      throw new NotSupportedError(`this use of a subquery is not supported yet: ${exprText(e)}`);
    case 'binary': {
      const l = compileExpr(e.left, schema, shared);
      const r = compileExpr(e.right, schema, shared);
      if (e.op === 'and' || e.op === 'or') return shortCircuit(e.op, l, r, mayRaise(e.right));
      if (e.left.type.id === 'interval' && e.right.type.id === 'interval' && COMPARISONS.has(e.op)) {
        const op = e.op as ComparisonOp;
        return { evaluate: (b) => compare(op, intervalSpans(l.evaluate(b)), intervalSpans(r.evaluate(b))) };
      }
      if (e.left.type.id === 'interval' || e.right.type.id === 'interval')
        return checkedTemporal(compileIntervalArith(e, schema));
      if (e.op === '=' || e.op === '<>' || e.op === '<' || e.op === '<=' || e.op === '>' || e.op === '>=') {
        const op = e.op as ComparisonOp;
        const general: PhysicalExpr = { evaluate: (b) => compare(op, l.evaluate(b), r.evaluate(b)) };
        const scalar = literalComparison(e);
        if (scalar) {
          const operand = scalar.operand === e.left ? l : r;
          const { op: cmp, value } = scalar;
          return { evaluate: (b) => compareScalar(cmp, operand.evaluate(b), value) ?? general.evaluate(b) };
        }
        if (isTextLiteral(e.right) && e.left.type.id === 'utf8') return textCompare(l, op, e.right.value as string);
        if (isTextLiteral(e.left) && e.right.type.id === 'utf8')
          return textCompare(r, flipCmp(op), e.left.value as string);
        return general;
      }
      const single = arithmeticNode(e, l, r);
      // Two or more exact operators in a row (price * (1 - discount)): one pass for the whole tree.
      const node = canFuse(e) ? fusedArithmetic(e, (leaf) => compileExpr(leaf, schema, shared), single) : single;
      return e.type.id === 'date' ? checkedTemporal(node) : node;
    }
    case 'unary': {
      const inner = compileExpr(e.expr, schema);
      if (e.op === 'not') return { evaluate: (b) => not(inner.evaluate(b)) };
      if (e.op === 'neg' && e.type.id === 'interval')
        return { evaluate: (b) => mapIntervals([inner.evaluate(b)], negateInterval) };
      if (e.op === 'neg') return { evaluate: (b) => negate(inner.evaluate(b)) };
      const op = e.op;
      return { evaluate: (b) => isPredicate(op, inner.evaluate(b)) };
    }
    case 'cast': {
      const inner = compileExpr(e.expr, schema, shared);
      return { evaluate: (b) => cast(inner.evaluate(b), e.type) };
    }
    case 'call': {
      const fn = lookupFunction(e.name);
      if (!fn) throw new InternalError(`function ${e.name} vanished after binding`);
      const args = e.args.map((a) => compileExpr(a, schema));
      if (e.name === 'coalesce' && e.args.slice(1).some(mayRaiseOnRows)) return lazyCoalesce(e, args);
      return {
        evaluate: (b) =>
          fn.evaluate(
            args.map((a) => a.evaluate(b)),
            b.length,
            e.type,
          ),
      };
    }
    case 'case':
      // Arms compiled with the shared subexpressions (Q14's THEN arm is the other SUM's argument).
      return evaluateCase(e, schema, (x, s) => compileExpr(x, s, shared));
    case 'in_list':
      return evaluateInList(
        e,
        compileExpr(e.expr, schema),
        e.list.map((x) => compileExpr(x, schema)),
      );
    case 'like':
      return compileLike(e, compileExpr(e.expr, schema), compileExpr(e.pattern, schema));
  }
}

/** One arithmetic operator over its compiled operands; `x op literal` reads the column once, without a constant column. */
function arithmeticNode(e: BinaryExpr, l: PhysicalExpr, r: PhysicalExpr): PhysicalExpr {
  const op = e.op as ArithmeticOp;
  const gathers = (op === '+' || op === '-' || op === '*') && (e.type.id === 'decimal' || e.type.id === 'int64');
  const general: PhysicalExpr = {
    evaluate: (b) => {
      const x = l.evaluate(b);
      const y = r.evaluate(b);
      return (
        (gathers ? arithmeticOfGathered(op as '+' | '-' | '*', x, y, e.type) : null) ?? arithmetic(op, x, y, e.type)
      );
    },
  };
  const literalFirst = e.left.kind === 'literal';
  const lit = literalFirst ? e.left : e.right;
  if (lit.kind !== 'literal' || typeof lit.value !== 'number' || literalFirst === (e.right.kind === 'literal'))
    return general;
  const operand = literalFirst ? r : l;
  const value = lit.value;
  return {
    evaluate: (b) => arithmeticScalar(op, operand.evaluate(b), value, literalFirst, e.type) ?? general.evaluate(b),
  };
}

/**
 * `x op y` for two columns gathered by one index array from sources without NULLs (a filter's survivors, Q6's
 * `l_extendedprice * l_discount`), computed from the sources by index instead of from copies of both: each row is
 * read once where it lies. Null when that does not apply; a result past the exact range is computed by
 * `arithmetic` over the copies.
 */
function arithmeticOfGathered(op: '+' | '-' | '*', x: Column, y: Column, type: DataType): Column | null {
  const gx = gatheredFrom(x);
  const gy = gx === null ? null : gatheredFrom(y);
  if (gx === null || gy === null || gx.indices !== gy.indices || gx.padded || gy.padded) return null;
  const sx = gx.source;
  const sy = gy.source;
  if (sx.valid !== null || sy.valid !== null) return null;
  // A narrow copy holds the same integers in fewer bytes, likely still cached by the filter that compared them.
  const vx = narrowOf(sx.values) ?? sx.values;
  const vy = narrowOf(sy.values) ?? sy.values;
  if (!isNumbers(vx) || !isNumbers(vy)) return null;
  // Computed when read; a SUM adds the rows without storing them (`sumArithmeticAt`).
  const at = { op, x: vx, y: vy, indices: gx.indices, length: x.length };
  return arithmeticAtColumn(
    type,
    at,
    () => exactArithAt(op, vx, vy, gx.indices, x.length) ?? arithmetic(op, x, y, type).values,
  );
}

function isNumbers(v: unknown): v is Int32Array | Float64Array | Int16Array | Int8Array {
  return v instanceof Float64Array || v instanceof Int32Array || v instanceof Int16Array || v instanceof Int8Array;
}

const COMPARISONS: ReadonlySet<string> = new Set(['=', '<>', '<', '<=', '>', '>=']);

/** `t ± interval`, `interval + t`, `interval ± interval`. */
function compileIntervalArith(e: BinaryExpr, schema: Schema): PhysicalExpr {
  const sign = e.op === '-' ? -1 : 1;
  if (e.left.type.id === 'interval' && e.right.type.id === 'interval') {
    const [l, r] = [compileExpr(e.left, schema), compileExpr(e.right, schema)];
    return { evaluate: (b) => mapIntervals([l.evaluate(b), r.evaluate(b)], addIntervals(sign)) };
  }
  const [t, iv] = e.right.type.id === 'interval' ? [e.left, e.right] : [e.right, e.left];
  const inner = compileExpr(t, schema);
  if (iv.kind !== 'literal') {
    const ivs = compileExpr(iv, schema);
    return { evaluate: (b) => addIntervalRows(inner.evaluate(b), ivs.evaluate(b), sign) };
  }
  if (iv.value === null) throw new NotSupportedError('interval arithmetic needs a constant interval');
  const value = iv.value as IntervalValue;
  return { evaluate: (b) => addInterval(inner.evaluate(b), value, sign) };
}

/** Whether a column's typed array was transferred to another thread (it then reads as empty). */
function isDetached(c: Column): boolean {
  const v = c.values;
  return ArrayBuffer.isView(v) && v.length !== c.length;
}
