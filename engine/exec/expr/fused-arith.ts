// `fusedArithmetic`: a tree of +, -, * over exact numbers (int64, decimal) evaluated in one generated loop.
import type { Batch } from '../../arrow/batch.js';
import { type Column, MAX_EXACT, makeColumn } from '../../arrow/column.js';
import { andValidity } from '../../arrow/kernels/validity.js';
import type { BinaryExpr, Expr } from '../../plan/expr/index.js';
import type { PhysicalExpr } from './physical-expr.js';

const FUSED_OPS = new Set(['+', '-', '*']);
const EXACT_TYPES = new Set(['int64', 'decimal']);

/** A node the fused loop computes itself: +, - or * whose result is int64 or a decimal (no int32 range check). */
function isFusedNode(e: Expr): e is BinaryExpr {
  return e.kind === 'binary' && FUSED_OPS.has(e.op) && EXACT_TYPES.has(e.type.id);
}

function fusedNodes(e: Expr): number {
  return isFusedNode(e) ? 1 + fusedNodes(e.left) + fusedNodes(e.right) : 0;
}

/** Whether `e` has at least two fused nodes: one alone already runs as one kernel pass. */
export function canFuse(e: Expr): boolean {
  return fusedNodes(e) >= 2;
}

type Loop = (
  columns: readonly (Float64Array | Int32Array)[],
  constants: readonly number[],
  n: number,
  out: Float64Array,
) => number;

/**
 * Loops by source text: an expression shape is compiled once per thread (literals are parameters, so `x * 3 + y`
 * and `x * 4 + y` share one). Emptied past MAX_LOOPS shapes, so a long-running server does not keep every one.
 */
const loops = new Map<string, Loop>();
const MAX_LOOPS = 512;

/**
 * `e` (where `canFuse(e)`) as one pass over its leaves: each row's whole tree is computed in registers and stored
 * once, instead of one pass and one stored column per operator (q1's `l_extendedprice * (1 - l_discount) *
 * (1 + l_tax)`: one pass instead of four). Leaves are the operands that are not fused nodes, compiled by
 * `compile`; literals that are safe integers are parameters of the loop. Falls back to `unfused` for a batch
 * where a leaf holds BigInts or some intermediate result leaves ±2^53 (NULL rows' garbage included: the unfused
 * kernels then skip them), so results are exactly those of the per-operator kernels.
 */
export function fusedArithmetic(
  e: BinaryExpr,
  compile: (leaf: Expr) => PhysicalExpr,
  unfused: PhysicalExpr,
): PhysicalExpr {
  const leaves: PhysicalExpr[] = [];
  const constants: number[] = [];
  const body: string[] = [];
  let temps = 0;
  const emit = (x: Expr): string => {
    if (x.kind === 'literal' && typeof x.value === 'number' && Number.isSafeInteger(x.value)) {
      constants.push(x.value);
      return `k${constants.length - 1}`;
    }
    if (!isFusedNode(x)) {
      leaves.push(compile(x));
      return `c${leaves.length - 1}[i]`;
    }
    const left = emit(x.left);
    const right = emit(x.right);
    const t = `t${temps++}`;
    body.push(`const ${t} = ${left} ${x.op} ${right};`, `m = Math.max(m, Math.abs(${t}));`);
    return t;
  };
  const result = emit(e);
  const source = [
    ...leaves.map((_, k) => `const c${k} = columns[${k}];`),
    ...constants.map((_, k) => `const k${k} = constants[${k}];`),
    'let m = 0;',
    'for (let i = 0; i < n; i++) {',
    ...body,
    `out[i] = ${result};`,
    '}',
    'return m;',
  ].join('\n');
  let loop = loops.get(source);
  if (loop === undefined) {
    if (loops.size >= MAX_LOOPS) loops.clear();
    loop = new Function('columns', 'constants', 'n', 'out', source) as Loop;
    loops.set(source, loop);
  }
  const run = loop;
  return {
    evaluate(b: Batch): Column {
      const columns = leaves.map((l) => l.evaluate(b));
      const values: (Float64Array | Int32Array)[] = [];
      for (const c of columns) {
        if (!(c.values instanceof Float64Array || c.values instanceof Int32Array)) return unfused.evaluate(b);
        values.push(c.values);
      }
      const n = b.length;
      const out = new Float64Array(n);
      if (run(values, constants, n, out) > MAX_EXACT) return unfused.evaluate(b);
      return makeColumn(e.type, out, andValidity(columns, n), n);
    },
  };
}
