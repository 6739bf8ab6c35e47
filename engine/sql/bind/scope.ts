// `Scope` resolves column names against the fields a clause can see, naming the alternatives on failure;
// a subquery's scope falls back to its enclosing query's scope (a correlated reference).
import { PlanError } from '../../errors.js';
import type { Expr } from '../../plan/expr/index.js';
import type { Field, Schema } from '../../plan/types.js';

/** How a FROM-clause column may be referred to (a JOIN … USING column hides its two source columns). */
export interface ScopeColumn {
  readonly field: Field;
  /** Resolvable without a qualifier. */
  readonly byName: boolean;
  /** Part of an unqualified `*`. */
  readonly inStar: boolean;
  /** The name it is referred to by, when not `field.name` (a duplicate under a join's alias keeps its name). */
  readonly name?: string;
}

/** The name a FROM-clause column is referred to by. */
export function columnName(c: ScopeColumn): string {
  return c.name ?? c.field.name;
}

export function plainColumns(schema: Schema): ScopeColumn[] {
  return schema.fields.map((field) => ({ field, byName: true, inStar: true }));
}

export class Scope {
  readonly #columns: readonly ScopeColumn[];
  readonly #outer: Scope | null;

  constructor(source: Schema | readonly ScopeColumn[], outer: Scope | null = null) {
    this.#columns = 'fields' in source ? plainColumns(source) : source;
    this.#outer = outer;
  }

  get fields(): readonly Field[] {
    return this.#columns.map((c) => c.field);
  }

  get outer(): Scope | null {
    return this.#outer;
  }

  /** The fields `*` (no table) or `t.*` expands to. */
  starFields(table: string | null): Field[] {
    if (table === null) return this.#columns.filter((c) => c.inStar).map((c) => c.field);
    const t = table.toLowerCase();
    return this.#columns.filter((c) => c.field.qualifier?.toLowerCase() === t).map((c) => c.field);
  }

  /** True when `[qualifier.]name` names a column of this scope (not of an enclosing one). */
  has(qualifier: string | null, name: string): boolean {
    return this.#hits(qualifier, name).length > 0;
  }

  /**
   * Resolves `[qualifier.]name`: exact match first, then case-insensitive (unquoted names fold); names this
   * query lacks are looked up in the enclosing query and come back as `outer_column`.
   */
  resolve(qualifier: string | null, name: string): Expr {
    const hits = this.#hits(qualifier, name);
    if (hits.length === 1) {
      const f = hits[0]!;
      return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
    }
    const shown = qualifier ? `${qualifier}.${name}` : name;
    if (hits.length > 1) throw new PlanError(`column reference "${name}" is ambiguous`);
    if (this.#outer?.canResolve(qualifier, name)) {
      const e = this.#outer.resolve(qualifier, name);
      // A column two or more levels up stays an outer reference: each level's decorrelation passes it on.
      if (e.kind !== 'column') return e;
      return { kind: 'outer_column', qualifier: e.qualifier, name: e.name, type: e.type };
    }
    const fields = this.fields;
    if (qualifier !== null && !fields.some((f) => sameName(f.qualifier, qualifier))) {
      const known = [...new Set(fields.map((f) => f.qualifier).filter((q) => q !== null))];
      throw new PlanError(
        `missing FROM-clause entry for table "${qualifier}"; tables in scope: ${known.join(', ') || '(none)'}`,
      );
    }
    const names = this.#columns.filter((c) => c.byName).map(columnName);
    throw new PlanError(`column "${shown}" does not exist; available columns: ${names.join(', ') || '(none)'}`);
  }

  canResolve(qualifier: string | null, name: string): boolean {
    return this.#hits(qualifier, name).length === 1 || (this.#outer?.canResolve(qualifier, name) ?? false);
  }

  #hits(qualifier: string | null, name: string): Field[] {
    const visible = this.#columns.filter((c) =>
      qualifier === null ? c.byName : c.field.qualifier !== null && sameName(c.field.qualifier, qualifier),
    );
    const exact = visible.filter(
      (c) => columnName(c) === name && (qualifier === null || c.field.qualifier === qualifier),
    );
    if (exact.length > 0) return exact.map((c) => c.field);
    return visible.filter((c) => columnName(c).toLowerCase() === name.toLowerCase()).map((c) => c.field);
  }
}

function sameName(a: string | null, b: string): boolean {
  return a === b || a?.toLowerCase() === b.toLowerCase();
}
