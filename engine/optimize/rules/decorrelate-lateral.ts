// decorrelate-lateral: `L JOIN LATERAL (q) x ON c` without re-running q per row of L. q's correlated conditions
// are pulled up (pull-up-correlated.ts) and join it to L:
//   L [LEFT] JOIN LATERAL (q) ON c   ->  L [LEFT] JOIN q' ON c AND <q's correlated conditions>
// A q that is an aggregate without GROUP BY has exactly one row per row of L (COUNT 0 over none): it is left
// joined, and its columns take their values over no rows where no group met the row.
import { NotSupportedError, PlanError } from '../../errors.js';
import { type ColumnExpr, col, conjoin, type Expr, lit, transformExpr } from '../../plan/expr/index.js';
import { type Join, type LogicalPlan, makeFilter, makeJoin, makeProject } from '../../plan/logical/index.js';
import { BOOL } from '../../plan/types.js';
import type { OptimizerContext } from '../rule.js';
import { pullUpCorrelated } from './pull-up-correlated.js';
import { findOuter, requalifyPlan } from './requalify-plan.js';
import { isScalarAggregate, valueOverNoRows } from './value-over-no-rows.js';

const PRESENT = '__present';

/** `p` (a lateral join) as a plain join with the same output columns. */
export function decorrelateLateral(p: Join, ctx: OptimizerContext): LogicalPlan {
  const plain = makeJoin(p.joinType, p.left, p.right, p.on, { ...p, lateral: false });
  const alias = `__lateral_${p.right.schema.fields[0]?.qualifier ?? ''}`;
  const pulled = pullUpCorrelated(p.right, { outer: p.left, alias: `${alias}_outer` });
  const remaining = findOuter(pulled.plan, p.left);
  if (remaining)
    throw new NotSupportedError(`a LATERAL reference to ${remaining} in this position is not supported yet`);
  if (pulled.preds.length === 0) return plain;
  if (p.joinType !== 'inner' && p.joinType !== 'left')
    throw new PlanError(
      'invalid reference to FROM-clause entry: the combining JOIN type must be INNER or LEFT for a LATERAL reference',
    );
  const single = isScalarAggregate(p.right);
  let right = pulled.plan;
  if (single) right = withPresent(right);
  const { plan: renamed, rename } = requalifyPlan(right, alias);
  const own = new Set(p.right.schema.fields.map((f) => `${f.qualifier}.${f.name}`));
  const inLeft = (x: { qualifier: string | null; name: string }) =>
    p.left.schema.fields.some((f) => f.name === x.name && f.qualifier === x.qualifier);
  const preds = pulled.preds.map((e) =>
    transformExpr(e, (x) =>
      x.kind === 'outer_column' && inLeft(x) ? col(x.qualifier, x.name, x.type) : x.kind === 'column' ? rename(x) : x,
    ),
  );
  const on =
    p.on && !single
      ? transformExpr(p.on, (x) => (x.kind === 'column' && own.has(`${x.qualifier}.${x.name}`) ? rename(x) : x))
      : null;
  const join = makeJoin(single ? 'left' : p.joinType, p.left, renamed, conjoin([...(on ? [on] : []), ...preds]), {
    singleMatch: single,
  });
  const lateralCols = p.right.schema.fields.map((f, i) => {
    const c = rename(col(f.qualifier, f.name, f.type) as ColumnExpr);
    const overNoRows = single ? valueOverNoRows(p.right, ctx, i) : null;
    const empty =
      overNoRows &&
      transformExpr(overNoRows, (x) => (x.kind === 'outer_column' ? col(x.qualifier, x.name, x.type) : x));
    return empty ? whenAbsent(rename(col(null, PRESENT, BOOL)), empty, c) : c;
  });
  const exprs = [...p.left.schema.fields.map((f) => col(f.qualifier, f.name, f.type)), ...lateralCols];
  const out = makeProject(join, exprs, plain.schema.fields);
  return single && p.on !== null ? onOneRow(out, p) : out;
}

/**
 * ON over the one row an aggregate lateral has per left row, checked after the join: an inner join drops the
 * row where it is not true, a left join keeps it with the lateral's columns NULL.
 */
function onOneRow(out: LogicalPlan, p: Join): LogicalPlan {
  if (p.joinType === 'inner') return makeFilter(out, p.on!);
  const fields = out.schema.fields;
  const leftCount = p.left.schema.fields.length;
  const exprs = fields.map((f, i): Expr => {
    const c = col(f.qualifier, f.name, f.type);
    if (i < leftCount) return c;
    return { kind: 'case', whens: [{ when: p.on!, result: c }], otherwise: lit(null, f.type), type: f.type };
  });
  return makeProject(out, exprs, fields);
}

/** `plan` with a last column that is true on every row (NULL after a left join where no row met). */
function withPresent(plan: LogicalPlan): LogicalPlan {
  const fields = plan.schema.fields;
  return makeProject(
    plan,
    [...fields.map((f) => col(f.qualifier, f.name, f.type)), lit(true, BOOL)],
    [...fields, { name: PRESENT, qualifier: null, type: BOOL, nullable: false }],
  );
}

function whenAbsent(present: Expr, empty: Expr, value: Expr): Expr {
  const absent: Expr = { kind: 'unary', op: 'is_null', expr: present, type: BOOL };
  return { kind: 'case', whens: [{ when: absent, result: empty }], otherwise: value, type: value.type };
}
