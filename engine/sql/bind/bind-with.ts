// `bindWith`: a query's WITH list becomes CTE definitions visible to the query (and to later CTEs).
import { PlanError } from '../../errors.js';
import type { LogicalPlan } from '../../plan/logical/index.js';
import type { Ast } from '../parse.js';
import type { BindContext, CteDefinition } from './bind-from.js';

export function bindWith(
  ast: Ast,
  ctx: BindContext,
  bindBody: (ast: Ast, ctx: BindContext) => LogicalPlan,
): LogicalPlan {
  if (!ast.with) return bindBody(ast, ctx);
  // WITH RECURSIVE: every entry sees the whole list (itself and later entries too); the parser marks the first.
  const recursive = Boolean(ast.with.some?.((w: Ast) => w.recursive) || ast.recursive);
  const ctes = new Map(ctx.ctes);
  const seen = new Set<string>();
  for (const w of ast.with as Ast[]) {
    const name = String(w.name?.value ?? w.name);
    const key = name.toLowerCase();
    if (seen.has(key)) throw new PlanError(`WITH query name "${name}" specified more than once`);
    seen.add(key);
    const columns = w.columns ? (w.columns as Ast[]).map(columnName) : null;
    const body = w.stmt?.ast ?? w.stmt;
    // A recursive CTE's own self-reference is its working table, not a reader of its result.
    const selfReferences = recursive ? countReferences(body, key) : 0;
    const def: CteDefinition = {
      name,
      ast: body,
      columns,
      references: countReferences(ast, key) - selfReferences,
      ctes: recursive ? ctes : new Map(ctes),
      outer: ctx.outer,
      bound: null,
      id: 0,
      recursive: selfReferences > 0,
    };
    ctes.set(key, def);
  }
  return bindBody({ ...ast, with: null }, { ...ctx, ctes });
}

function columnName(c: Ast): string {
  return String(c.column?.expr?.value ?? c.column ?? c.value ?? c);
}

/** How many FROM items anywhere in the statement name `key` (a CTE referenced twice is computed once). */
function countReferences(ast: Ast, key: string): number {
  let n = 0;
  const walk = (node: Ast) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    if (typeof node.table === 'string' && !node.db && !node.column && node.table.toLowerCase() === key) n++;
    for (const v of Object.values(node)) walk(v);
  };
  walk(ast);
  return n;
}
