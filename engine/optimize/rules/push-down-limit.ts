// push-down-limit: LIMIT over ORDER BY becomes a TopK sort; LIMIT over a bare scan stops the scan early.
import { type LogicalPlan, makeLimit, transformPlan } from '../../plan/logical/index.js';
import type { OptimizerRule } from '../rule.js';

export const pushDownLimit: OptimizerRule = {
  name: 'push-down-limit',
  apply: (plan) => transformPlan(plan, push),
};

function push(p: LogicalPlan): LogicalPlan {
  if (p.kind !== 'limit' || p.fetch === null) return p;
  const rows = p.skip + p.fetch;
  return { ...p, input: into(p.input, rows) };
}

function into(p: LogicalPlan, rows: number): LogicalPlan {
  switch (p.kind) {
    // Limit(n) over Sort -> Sort(fetch=n): a TopK keeps n rows instead of sorting everything
    case 'sort':
      return { ...p, fetch: p.fetch === null ? rows : Math.min(p.fetch, rows) };
    // Limit(n) over Project -> the projection keeps row counts, so the limit passes through it
    case 'project':
      return { ...p, input: into(p.input, rows) };
    // Limit(n) over Scan without filters -> Scan(limit=n)
    case 'scan':
      return p.filters.length === 0 ? { ...p, limit: p.limit === null ? rows : Math.min(p.limit, rows) } : p;
    // Limit(n) over Union -> each arm also under Limit(n); the outer Limit still cuts the total to n
    case 'union':
      return { ...p, inputs: p.inputs.map((arm) => push(makeLimit(arm, 0, rows))) };
    case 'limit':
      return p.fetch === null ? p : { ...p, fetch: Math.min(p.fetch, Math.max(0, rows - p.skip)) };
    default:
      return p;
  }
}
