// `aliasJoin`: `(a JOIN b …) AS j [(c1, …)]`: the join's columns under `j` alone, as PostgreSQL scopes them.
import { PlanError } from '../../errors.js';
import { col } from '../../plan/expr/index.js';
import { makeProject } from '../../plan/logical/index.js';
import type { Field } from '../../plan/types.js';
import type { Relation } from './bind-from.js';
import { columnName, type ScopeColumn } from './scope.js';

/**
 * The columns `*` of the join names (a USING column once), renamed by the alias list, qualified with `alias`:
 * `a.x` and `b.y` are no longer in scope. Two columns of one name stay reachable by position (`*`); naming either
 * is "ambiguous", as in PostgreSQL. Internally each gets a distinct field name (`id`, `id_1`), the name floe
 * gives duplicate output columns anyway.
 */
export function aliasJoin(rel: Relation, alias: string, names: readonly string[] | null): Relation {
  const visible = rel.columns.filter((c) => c.inStar);
  if (names && names.length > visible.length)
    throw new PlanError(
      `join expression "${alias}" has ${visible.length} columns available but ${names.length} columns specified`,
    );
  const shown = visible.map((c, i) => names?.[i] ?? columnName(c));
  const taken = new Set(shown.map((n) => n.toLowerCase()));
  const fields: Field[] = [];
  const columns: ScopeColumn[] = [];
  for (const [i, c] of visible.entries()) {
    const name = distinctName(shown[i]!, i, shown, taken);
    const field: Field = { ...c.field, name, qualifier: alias };
    fields.push(field);
    columns.push(
      name === shown[i] ? { field, byName: true, inStar: true } : { field, byName: true, inStar: true, name: shown[i] },
    );
  }
  const plan = makeProject(
    rel.plan,
    visible.map((c) => col(c.field.qualifier, c.field.name, c.field.type)),
    fields,
  );
  return { plan, columns };
}

/** `name` when no earlier column is so named, else the first free `name_k`. */
function distinctName(name: string, at: number, shown: readonly string[], taken: Set<string>): string {
  const earlier = shown.slice(0, at).some((n) => n.toLowerCase() === name.toLowerCase());
  if (!earlier) return name;
  let k = 1;
  while (taken.has(`${name}_${k}`.toLowerCase())) k++;
  const out = `${name}_${k}`;
  taken.add(out.toLowerCase());
  return out;
}
