// CASE: each arm is evaluated only on the rows still undecided, so an error in an untaken arm never fires (arms
// that cannot raise, over numbers, run over every row and are picked per row).
import type { Batch } from '../../arrow/batch.js';
import { type Column, makeColumn } from '../../arrow/column.js';
import { selectTrue } from '../../arrow/kernels/take.js';
import type { CaseExpr, Expr } from '../../plan/expr/index.js';
import type { DataType, Schema } from '../../plan/types.js';
import type { PhysicalExpr } from './physical-expr.js';
import { assemble, complement, identity, type Part, pick, subset } from './row-parts.js';
import { mayRaiseOnRows } from './short-circuit.js';

type Compile = (e: Expr, schema: Schema) => PhysicalExpr;

export function evaluateCase(e: CaseExpr, schema: Schema, compile: Compile): PhysicalExpr {
  const whens = e.whens.map((w) => ({ when: compile(w.when, schema), result: compile(w.result, schema) }));
  const otherwise = e.otherwise ? compile(e.otherwise, schema) : null;
  const general = generalCase(e, whens, otherwise);
  const arm = whens[0];
  // `CASE WHEN c THEN x ELSE y END` over numbers whose arms cannot raise: both arms over every row, then one pass
  // picks (Q14's and Q8's sums of a share: x is often computed for another aggregate anyway, a shared
  // subexpression; picking arms row by row cost more than x itself).
  if (
    whens.length !== 1 ||
    otherwise === null ||
    !NUMERIC_STORAGE.has(e.type.id) ||
    mayRaiseOnRows(e.whens[0]!.result) ||
    mayRaiseOnRows(e.otherwise!)
  )
    return general;
  return {
    evaluate(batch) {
      const cond = arm!.when.evaluate(batch);
      const picked = pickArms(cond, arm!.result.evaluate(batch), otherwise.evaluate(batch), e.type, batch.length);
      return picked ?? general.evaluate(batch);
    },
  };
}

/** Types held as Float64Array or Int32Array (decimals while exact): the ones `pickArms` handles. */
const NUMERIC_STORAGE = new Set(['int32', 'int64', 'float64', 'decimal', 'date']);

/**
 * Per row, `then` where `cond` is true and `otherwise` elsewhere (NULL conditions count as false), when both arms
 * hold one kind of typed array; null otherwise (BigInt64Array decimals, JS values).
 */
function pickArms(cond: Column, then: Column, otherwise: Column, type: DataType, n: number): Column | null {
  const t = then.values;
  const o = otherwise.values;
  const c = cond.values as Uint8Array | null;
  if (
    c === null ||
    !((t instanceof Float64Array && o instanceof Float64Array) || (t instanceof Int32Array && o instanceof Int32Array))
  )
    return null;
  const cv = cond.valid;
  const tv = then.valid;
  const ov = otherwise.valid;
  const values = t instanceof Float64Array ? new Float64Array(n) : new Int32Array(n);
  const valid = tv === null && ov === null ? null : new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const take = c[i]! & (cv === null ? 1 : cv[i]!);
    values[i] = take === 1 ? t[i]! : o[i]!;
    if (valid !== null) valid[i] = take === 1 ? (tv === null ? 1 : tv[i]!) : ov === null ? 1 : ov[i]!;
  }
  return makeColumn(type, values, valid, n);
}

function generalCase(
  e: CaseExpr,
  whens: readonly { when: PhysicalExpr; result: PhysicalExpr }[],
  otherwise: PhysicalExpr | null,
): PhysicalExpr {
  return {
    evaluate(batch) {
      const n = batch.length;
      // Each arm's values and the rows they go to, written once all are known: an int64 arm beyond 2^53
      // (BigInt64Array) makes the whole result BigInt64Array.
      const parts: Part[] = [];
      let rows = identity(n);
      let current: Batch = batch;
      for (const arm of whens) {
        if (rows.length === 0) break;
        const cond = arm.when.evaluate(current);
        const { indices, count } = selectTrue(cond);
        if (count > 0) {
          const hit = indices.subarray(0, count);
          parts.push({ src: arm.result.evaluate(subset(current, hit)), rows, local: hit });
        }
        const miss = complement(indices, count, rows.length);
        rows = pick(rows, miss);
        current = subset(current, miss);
      }
      if (otherwise && rows.length > 0)
        parts.push({ src: otherwise.evaluate(current), rows, local: identity(rows.length) });
      return assemble(parts, e.type, n);
    },
  };
}
