// `Scope` resolves column names against the fields a clause can see, naming the alternatives on failure.
import { PlanError } from '../../errors.js';
import type { ColumnExpr } from '../../plan/expr/index.js';
import type { Field, Schema } from '../../plan/types.js';

export class Scope {
  readonly #fields: readonly Field[];
  constructor(schema: Schema) {
    this.#fields = schema.fields;
  }

  get fields(): readonly Field[] {
    return this.#fields;
  }

  /** Resolves `[qualifier.]name`: exact match first, then case-insensitive (unquoted names fold). */
  resolve(qualifier: string | null, name: string): ColumnExpr {
    const f = this.#find(qualifier, name);
    return { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
  }

  #find(qualifier: string | null, name: string): Field {
    const inQualifier = (f: Field) =>
      qualifier === null || f.qualifier === qualifier || f.qualifier?.toLowerCase() === qualifier.toLowerCase();
    let hits = this.#fields.filter((f) => f.name === name && inQualifier(f));
    if (hits.length === 0)
      hits = this.#fields.filter((f) => f.name.toLowerCase() === name.toLowerCase() && inQualifier(f));
    if (hits.length === 1) return hits[0]!;
    const shown = qualifier ? `${qualifier}.${name}` : name;
    if (hits.length > 1) throw new PlanError(`column reference "${shown}" is ambiguous`);
    if (qualifier !== null && !this.#fields.some((f) => inQualifier(f))) {
      const known = [...new Set(this.#fields.map((f) => f.qualifier).filter((q) => q !== null))];
      throw new PlanError(
        `missing FROM-clause entry for table "${qualifier}"; tables in scope: ${known.join(', ') || '(none)'}`,
      );
    }
    const names = this.#fields.map((f) => f.name);
    throw new PlanError(`column "${shown}" does not exist; available columns: ${names.join(', ') || '(none)'}`);
  }
}
