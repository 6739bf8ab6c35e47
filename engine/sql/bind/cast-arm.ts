// `castArm`: a set operation's arm (or a recursive query's term) brought to the column types of the whole.
import type { Expr } from '../../plan/expr/index.js';
import { type LogicalPlan, makeProject } from '../../plan/logical/index.js';
import { type DataType, type Field, sameType } from '../../plan/types.js';
import { castTo } from './coerce.js';

/** The expressions an arm outputs (its top projection's, so that untyped literals still count as such). */
export function outputExprs(p: LogicalPlan): readonly Expr[] {
  if (p.kind === 'project') return p.exprs;
  return p.schema.fields.map((f): Expr => ({ kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type }));
}

/** `p` with its columns cast to `types`: folded into its top projection when it has one. */
export function castArm(p: LogicalPlan, types: readonly DataType[]): LogicalPlan {
  const fields = p.schema.fields;
  if (fields.every((f, c) => sameType(f.type, types[c]!) && !untypedAt(p, c))) return p;
  const exprs = outputExprs(p).map((e, c) => castTo(e, types[c]!));
  const typed = fields.map((f, c): Field => ({ ...f, type: types[c]! }));
  return p.kind === 'project' ? { ...p, exprs, schema: { fields: typed } } : makeProject(p, exprs, typed);
}

function untypedAt(p: LogicalPlan, c: number): boolean {
  const e = p.kind === 'project' ? p.exprs[c] : undefined;
  return e?.kind === 'literal' && e.untyped === true;
}
