// Giving a decorrelated subquery's columns a fresh qualifier, and finding outer references pulling up left behind.
import { exprText } from '../../plan/expr/display.js';
import { type ColumnExpr, col, type Expr, someExpr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeProject, planChildren } from '../../plan/logical/index.js';
import { mapPlanExprs } from '../map-exprs.js';

/** The plan under a fresh qualifier, each column renamed where needed to stay unique. */
export function requalifyPlan(p: LogicalPlan, alias: string): { plan: LogicalPlan; rename: (c: ColumnExpr) => Expr } {
  const seen = new Set<string>();
  const fields = p.schema.fields.map((f) => {
    let name = f.name;
    for (let k = 1; seen.has(name); k++) name = `${f.name}_${k}`;
    seen.add(name);
    return { ...f, name, qualifier: alias };
  });
  const plan = makeProject(
    p,
    p.schema.fields.map((f) => col(f.qualifier, f.name, f.type)),
    fields,
  );
  const rename = (c: ColumnExpr): Expr => {
    const at = p.schema.fields.findIndex(
      (f) => f.name === c.name && (c.qualifier === null || f.qualifier === c.qualifier),
    );
    if (at < 0) return c;
    const f = fields[at]!;
    return col(f.qualifier, f.name, f.type);
  };
  return { plan, rename };
}

/**
 * The first reference to a column of `outer` left anywhere in `p` (a position pulling up cannot handle), as
 * text; references to queries further out are not counted.
 */
export function findOuter(p: LogicalPlan, outer: LogicalPlan): string | null {
  let found: string | null = null;
  const isOuter = (y: Expr) =>
    y.kind === 'outer_column' && outer.schema.fields.some((f) => f.name === y.name && f.qualifier === y.qualifier);
  const visit = (x: LogicalPlan) => {
    mapPlanExprs(x, (e) => {
      someExpr(e, (y) => {
        if (isOuter(y)) found ??= exprText(y);
        return found !== null;
      });
      return e;
    });
    if (found === null) for (const k of planChildren(x)) visit(k);
  };
  visit(p);
  return found;
}
