// prune-group-keys: GROUP BY columns that depend on other GROUP BY columns leave the key. A table column that the
// provider knows to be a key (no NULL, no value twice) determines every other column of that table, and columns
// compared equal by an inner join or a filter determine each other; `GROUP BY c_custkey, c_name, n_name` (customer
// joined to nation on its key) then groups by c_custkey alone and takes c_name and n_name with any_value, which
// copies them once per group instead of hashing and comparing text on every row. A projection above restores the
// aggregate's columns in their order, under their names.

import { columnsOf, type Expr, splitConjuncts } from '../../plan/expr/index.js';
import {
  type Aggregate,
  type AggregateCall,
  type LogicalPlan,
  makeProject,
  planChildren,
  type Scan,
  transformPlan,
} from '../../plan/logical/index.js';
import { type Field, fieldIndex, type Schema } from '../../plan/types.js';
import { displayName } from '../../sql/bind/bind-aggregate.js';
import type { OptimizerContext, OptimizerRule } from '../rule.js';

export const pruneGroupKeys: OptimizerRule = {
  name: 'prune-group-keys',
  apply: (plan, ctx) => (ctx.columnUnique === undefined ? plan : prune(plan, ctx)),
};

function prune(plan: LogicalPlan, ctx: OptimizerContext): LogicalPlan {
  return transformPlan(plan, (q) => {
    if (q.kind !== 'aggregate' || q.groupingSets !== undefined || q.groupBy.length < 2) return q;
    return pruneAggregate(q, ctx) ?? q;
  });
}

/** A base-table column a plan column carries unchanged: the scan it comes from, and the column's name there. */
interface Origin {
  readonly scan: Scan;
  readonly column: string;
}

function pruneAggregate(agg: Aggregate, ctx: OptimizerContext): LogicalPlan | null {
  // A scan object reached twice would give one origin to columns of two different rows.
  if (!scansOnce(agg.input, new Set())) return null;
  const origins = originsOf(agg.input);
  const facts = new Dependencies(agg.input, ctx);
  const originOf = (c: { qualifier: string | null; name: string }): Origin | null => {
    const at = fieldIndex(agg.input.schema, c.qualifier, c.name);
    return at < 0 ? null : (origins[at] ?? null);
  };
  const keyOrigins = agg.groupBy.map((e) => {
    const cols = columnsOf(e);
    const list = cols.map(originOf);
    return cols.length > 0 && list.every((o) => o !== null) ? (list as Origin[]) : null;
  });
  // Text keys are tried first, then other non-integer ones: those are the ones worth taking out of the key.
  const cost = (e: Expr) => (e.type.id === 'utf8' ? 0 : e.type.id === 'int32' || e.type.id === 'date' ? 2 : 1);
  const order = agg.groupBy.map((_, i) => i).sort((a, b) => cost(agg.groupBy[a]!) - cost(agg.groupBy[b]!) || b - a);
  const kept = new Set(agg.groupBy.map((_, i) => i));
  for (const i of order) {
    const mine = keyOrigins[i];
    if (mine === null || kept.size === 1) continue;
    kept.delete(i);
    // Only a key that is a plain column determines anything (a key `substring(name, 1, 2)` does not fix `name`).
    const closure = facts.closure(
      [...kept].flatMap((k) => (agg.groupBy[k]!.kind === 'column' ? (keyOrigins[k] ?? []) : [])),
    );
    if (!mine.every((o) => closure.has(o))) kept.add(i);
  }
  if (kept.size === agg.groupBy.length) return null;

  const g = agg.groupBy.length;
  const fields = agg.schema.fields;
  const names = new Set(fields.map((f) => f.name));
  const dropped = agg.groupBy.map((_, i) => i).filter((i) => !kept.has(i));
  const calls: AggregateCall[] = dropped.map((i) => {
    let name = `any_value(${displayName(agg.groupBy[i]!)})`;
    while (names.has(name)) name += "'";
    names.add(name);
    const arg = agg.groupBy[i]!;
    return { fn: 'any_value', args: [arg], distinct: false, filter: null, type: arg.type, name };
  });
  const keptKeys = agg.groupBy.map((_, i) => i).filter((i) => kept.has(i));
  const inner: Aggregate = {
    ...agg,
    groupBy: keptKeys.map((i) => agg.groupBy[i]!),
    aggregates: [...agg.aggregates, ...calls],
    schema: {
      fields: [
        ...keptKeys.map((i) => fields[i]!),
        ...fields.slice(g),
        ...calls.map((c): Field => ({ qualifier: null, name: c.name, type: c.type, nullable: true })),
      ],
    },
  };
  const ref = (f: Field): Expr => ({ kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type });
  const exprs = fields.map((f, i) => {
    if (i >= g || kept.has(i)) return ref(f);
    const call = calls[dropped.indexOf(i)]!;
    return ref({ qualifier: null, name: call.name, type: call.type, nullable: true });
  });
  return makeProject(inner, exprs, fields);
}

/** Each output column's origin, or null when it is computed (or comes through a node not followed here). */
function originsOf(p: LogicalPlan): (Origin | null)[] {
  switch (p.kind) {
    case 'scan':
      return p.schema.fields.map((f) => ({ scan: p, column: f.name }));
    case 'filter':
    case 'sort':
    case 'limit':
      return originsOf(p.input);
    case 'project': {
      const input = originsOf(p.input);
      return p.exprs.map((e) => {
        if (e.kind !== 'column') return null;
        const at = fieldIndex(p.input.schema, e.qualifier, e.name);
        return at < 0 ? null : (input[at] ?? null);
      });
    }
    case 'join': {
      const left = originsOf(p.left);
      if (p.joinType === 'semi' || p.joinType === 'anti') return left;
      if (p.joinType === 'mark') return [...left, null];
      return [...left, ...originsOf(p.right)];
    }
    default:
      return p.schema.fields.map(() => null);
  }
}

/**
 * What determines what below an aggregate: columns compared equal (inner join conditions and filters, wherever
 * they hold on every row that reaches the aggregate) and the key columns the providers know.
 */
class Dependencies {
  /** Equal columns, as union-find parents over origin ids. */
  readonly #parent = new Map<string, string>();
  readonly #origins = new Map<string, Origin>();
  readonly #scanIds = new Map<Scan, number>();
  readonly #ctx: OptimizerContext;

  constructor(input: LogicalPlan, ctx: OptimizerContext) {
    this.#ctx = ctx;
    this.#collect(input);
  }

  /** Every origin the given ones determine (as ids; `has` takes an origin). */
  closure(from: readonly Origin[]): { has(o: Origin): boolean } {
    const ids = new Set(from.map((o) => this.#id(o)));
    const whole = new Set<Scan>();
    for (let changed = true; changed; ) {
      changed = false;
      // Equal columns of those in the closure, and whole tables whose key is in it.
      for (const [id, o] of this.#origins) {
        if (ids.has(id) || whole.has(o.scan)) continue;
        if ([...ids].some((k) => this.#find(k) === this.#find(id))) {
          ids.add(id);
          changed = true;
        }
      }
      for (const id of ids) {
        const o = this.#origins.get(id)!;
        if (!whole.has(o.scan) && this.#ctx.columnUnique?.(o.scan.table, o.column) === true) {
          whole.add(o.scan);
          for (const [other, x] of this.#origins) if (x.scan === o.scan) ids.add(other);
          changed = true;
        }
      }
    }
    return { has: (o) => whole.has(o.scan) || ids.has(this.#id(o)) };
  }

  #id(o: Origin): string {
    let n = this.#scanIds.get(o.scan);
    if (n === undefined) {
      n = this.#scanIds.size;
      this.#scanIds.set(o.scan, n);
    }
    const id = `${n}.${o.column}`;
    if (!this.#origins.has(id)) this.#origins.set(id, o);
    return id;
  }

  #find(id: string): string {
    let root = id;
    while (this.#parent.has(root)) root = this.#parent.get(root)!;
    return root;
  }

  #union(a: Origin, b: Origin): void {
    const ra = this.#find(this.#id(a));
    const rb = this.#find(this.#id(b));
    if (ra !== rb) this.#parent.set(ra, rb);
  }

  /** Equalities `column = column` of filters and inner joins, through the nodes `originsOf` follows. */
  #collect(p: LogicalPlan): void {
    const equalities = (predicate: Expr, schema: Schema) => {
      const origins = originsOf(p);
      const at = (c: Expr) => (c.kind === 'column' ? fieldIndex(schema, c.qualifier, c.name) : -1);
      for (const c of splitConjuncts(predicate)) {
        if (c.kind !== 'binary' || c.op !== '=') continue;
        const a = origins[at(c.left)];
        const b = origins[at(c.right)];
        if (a && b) this.#union(a, b);
      }
    };
    switch (p.kind) {
      case 'scan':
        for (const f of p.schema.fields) this.#id({ scan: p, column: f.name });
        return;
      case 'filter':
        this.#collect(p.input);
        equalities(p.predicate, p.schema);
        return;
      case 'sort':
      case 'limit':
      case 'project':
        this.#collect(p.input);
        return;
      case 'join':
        this.#collect(p.left);
        if (p.joinType === 'semi' || p.joinType === 'anti' || p.joinType === 'mark') return;
        this.#collect(p.right);
        if (p.joinType === 'inner' && p.on !== null) equalities(p.on, p.schema);
        return;
      default:
        return;
    }
  }
}

function scansOnce(p: LogicalPlan, seen: Set<Scan>): boolean {
  if (p.kind === 'scan') {
    if (seen.has(p)) return false;
    seen.add(p);
  }
  return planChildren(p).every((c) => scansOnce(c, seen));
}
