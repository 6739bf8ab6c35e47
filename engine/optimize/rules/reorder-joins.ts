// reorder-joins: a cluster of inner joins (comma joins included) is rebuilt greedily from its inputs: the connected
// pair with the smallest estimated result joins first, the smaller input is the hash join's build (right) side, and
// two inputs with no condition between them are crossed only when nothing else is left.
import { columnsOf, conjoin, type Expr, splitConjuncts } from '../../plan/expr/index.js';
import {
  type LogicalPlan,
  makeFilter,
  makeJoin,
  planChildren,
  projectToSchema,
  withInputs,
} from '../../plan/logical/index.js';
import type { OptimizerContext, OptimizerRule } from '../rule.js';
import { equiJoinRows, estimateRows, selectivity } from './estimate.js';

export const reorderJoins: OptimizerRule = {
  name: 'reorder-joins',
  apply: (plan, ctx) => reorder(plan, ctx),
};

function reorder(p: LogicalPlan, ctx: OptimizerContext): LogicalPlan {
  if (p.kind !== 'join' || p.joinType !== 'inner') {
    const kids = planChildren(p);
    return kids.length === 0
      ? p
      : withInputs(
          p,
          kids.map((k) => reorder(k, ctx)),
        );
  }
  const leaves: LogicalPlan[] = [];
  const conjuncts: Expr[] = [];
  collect(p, leaves, conjuncts);
  if (leaves.length < 3 && conjuncts.length === 0) return withInputs(p, [reorder(p.left, ctx), reorder(p.right, ctx)]);
  const rebuilt = greedy(
    leaves.map((l) => reorder(l, ctx)),
    conjuncts,
    ctx,
  );
  // The original column order, for whatever reads the cluster's output by position.
  return projectToSchema(rebuilt, p.schema);
}

function collect(p: LogicalPlan, leaves: LogicalPlan[], conjuncts: Expr[]): void {
  if (p.kind === 'join' && p.joinType === 'inner') {
    if (p.on) conjuncts.push(...splitConjuncts(p.on));
    collect(p.left, leaves, conjuncts);
    collect(p.right, leaves, conjuncts);
  } else leaves.push(p);
}

interface Part {
  readonly plan: LogicalPlan;
  /** Indexes of the cluster's leaves joined into this part. */
  readonly leaves: ReadonlySet<number>;
  readonly rows: number;
}

function greedy(leaves: LogicalPlan[], conjuncts: Expr[], ctx: OptimizerContext): LogicalPlan {
  const owner = (e: Expr): Set<number> | null => {
    const out = new Set<number>();
    for (const c of columnsOf(e)) {
      const at = leaves.findIndex((l) =>
        l.schema.fields.some((f) => f.name === c.name && (c.qualifier === null || f.qualifier === c.qualifier)),
      );
      if (at < 0) return null;
      out.add(at);
    }
    return out;
  };
  const uses = conjuncts.map(owner);
  const pending = conjuncts.map((_, i) => i);
  let parts: Part[] = leaves.map((plan, i) => ({ plan, leaves: new Set([i]), rows: estimateRows(plan, ctx) }));
  // Conjuncts over one input (or none) are applied to it before any join.
  for (let i = pending.length - 1; i >= 0; i--) {
    const u = uses[pending[i]!];
    if (u === null || u.size > 1) continue;
    const c = conjuncts[pending[i]!]!;
    const at = u.size === 0 ? 0 : [...u][0]!;
    const part = parts[at]!;
    const plan = makeFilter(part.plan, c);
    parts[at] = { ...part, plan, rows: part.rows * selectivity(c) };
    pending.splice(i, 1);
  }
  while (parts.length > 1) {
    let best: { a: number; b: number; rows: number; on: number[] } | null = null;
    for (let a = 0; a < parts.length; a++) {
      for (let b = a + 1; b < parts.length; b++) {
        const on = connecting(parts[a]!, parts[b]!, pending, uses);
        if (on.length === 0) continue;
        const rows = equiJoinRows(
          parts[a]!.rows,
          parts[b]!.rows,
          on.map((i) => conjuncts[i]!),
          leaves,
          ctx,
        );
        if (best === null || rows < best.rows) best = { a, b, rows, on };
      }
    }
    if (best === null) {
      // Nothing connects the parts left: cross the two smallest.
      const sorted = parts.map((p, i) => [p.rows, i] as const).sort((x, y) => x[0] - y[0]);
      const [a, b] = [sorted[0]![1], sorted[1]![1]];
      best = { a: Math.min(a, b), b: Math.max(a, b), rows: parts[a]!.rows * parts[b]!.rows, on: [] };
    }
    const pa = parts[best.a]!;
    const pb = parts[best.b]!;
    const [probe, build] = pa.rows >= pb.rows ? [pa, pb] : [pb, pa];
    const on = conjoin(best.on.map((i) => conjuncts[i]!));
    const joined: Part = {
      plan: makeJoin('inner', probe.plan, build.plan, on),
      leaves: new Set([...pa.leaves, ...pb.leaves]),
      rows: Math.max(1, best.rows),
    };
    for (const i of best.on) pending.splice(pending.indexOf(i), 1);
    parts = parts.filter((_, i) => i !== best.a && i !== best.b);
    parts.push(joined);
  }
  // Conjuncts whose columns no input owns alone (e.g. ambiguous names) go on top.
  const rest = pending.map((i) => conjuncts[i]!);
  return rest.length ? makeFilter(parts[0]!.plan, conjoin(rest)!) : parts[0]!.plan;
}

/** Pending conjuncts that read both parts and nothing outside them. */
function connecting(a: Part, b: Part, pending: readonly number[], uses: readonly (Set<number> | null)[]): number[] {
  return pending.filter((i) => {
    const u = uses[i];
    if (!u || u.size < 2) return false;
    let inA = false;
    let inB = false;
    for (const leaf of u) {
      if (a.leaves.has(leaf)) inA = true;
      else if (b.leaves.has(leaf)) inB = true;
      else return false;
    }
    return inA && inB;
  });
}
