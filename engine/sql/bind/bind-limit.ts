// LIMIT / OFFSET: constant non-negative integers (literals or parameters); LIMIT ALL means none.
import { PlanError } from '../../errors.js';
import type { Ast } from '../parse.js';
import { bindExpr, type ParamBinder } from './bind-expr.js';
import { Scope } from './scope.js';

export function bindLimit(limit: Ast, params: ParamBinder): { skip: number; fetch: number | null } | null {
  const values: Ast[] = limit?.value ?? [];
  if (values.length === 0) return null;
  if (limit.seperator === ',') throw new PlanError('LIMIT #,# syntax is not supported; use LIMIT # OFFSET #');
  const offsetOnly = limit.seperator === 'offset' && values.length === 1;
  const fetch = offsetOnly ? null : count(values[0], 'LIMIT', params);
  const skip = offsetOnly ? count(values[0], 'OFFSET', params) : values[1] ? count(values[1], 'OFFSET', params) : 0;
  return { skip: skip ?? 0, fetch };
}

function count(ast: Ast, clause: string, params: ParamBinder): number | null {
  if (ast.type === 'origin' && String(ast.value).toLowerCase() === 'all') return null;
  const e = bindExpr(ast, { scope: new Scope({ fields: [] }), params, aggregates: clause });
  if (e.kind !== 'literal') throw new PlanError(`argument of ${clause} must be a constant`);
  if (e.value === null) return null;
  const n = typeof e.value === 'string' ? Number(e.value) : Number(e.value);
  if (!Number.isInteger(n)) throw new PlanError(`argument of ${clause} must be an integer`);
  if (n < 0) throw new PlanError(`${clause} must not be negative`);
  return n;
}
