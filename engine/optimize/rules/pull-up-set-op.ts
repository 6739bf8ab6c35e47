// Correlated conditions under UNION ALL, INTERSECT and EXCEPT: every arm meets the same distinct outer values
// (by its own conditions; an arm without any meets them all) and carries them as extra columns, so the set
// operation works per outer value and the values join back by a NULL-safe equality. VALUES rows reading outer
// columns are the same: one arm per row, each a projection of the outer values.
import { col, conjoin } from '../../plan/expr/index.js';
import {
  type LogicalPlan,
  makeJoin,
  makeProject,
  type SetOp,
  type Union,
  type Values,
} from '../../plan/logical/index.js';
import type { Field } from '../../plan/types.js';
import { type Outer, outerValues } from './join-outer-values.js';
import type { Pulled } from './pull-up-correlated.js';

/** `p` over its pulled-up inputs `arms` (in `p`'s input order), some of them with correlated conditions. */
export function pullUpSetOp(p: Union | SetOp, arms: readonly Pulled[], o: Outer): Pulled {
  const originals = p.kind === 'union' ? p.inputs : [p.left, p.right];
  const v = outerValues(
    arms.flatMap((a) => a.preds),
    o,
  );
  const keyFields = v.plan.schema.fields;
  const inputs = arms.map((a, i) => {
    const joined = makeJoin('inner', a.plan, v.plan, conjoin(a.preds.map(v.toValues)));
    const fields = [...originals[i]!.schema.fields, ...keyFields];
    return makeProject(
      joined,
      fields.map((f) => col(f.qualifier, f.name, f.type)),
      fields,
    );
  });
  const schema = { fields: [...p.schema.fields, ...keyFields.map((f): Field => ({ ...f, nullable: true }))] };
  const plan: LogicalPlan =
    p.kind === 'union' ? { ...p, inputs, schema } : { ...p, left: inputs[0]!, right: inputs[1]!, schema };
  return { plan, preds: v.preds };
}

/** VALUES rows reading outer columns: per distinct outer value, each row computed from it. */
export function pullUpValues(p: Values, o: Outer): Pulled {
  const v = outerValues(p.rows.flat(), o);
  const keyFields = v.plan.schema.fields;
  const fields = [...p.schema.fields, ...keyFields];
  const inputs = p.rows.map((row) =>
    makeProject(v.plan, [...row.map(v.toValues), ...keyFields.map((f) => col(f.qualifier, f.name, f.type))], fields),
  );
  const plan: Union = { kind: 'union', inputs, schema: { fields } };
  return { plan, preds: v.preds };
}
