// `bindFrom` turns a FROM clause into a relation: tables, CTE references, derived tables and JOINs of them.
import type { Catalog } from '../../catalog.js';
import { NotSupportedError, PlanError } from '../../errors.js';
import { col, conjoin, type Expr } from '../../plan/expr/index.js';
import {
  type JoinType,
  type LogicalPlan,
  makeJoin,
  makeProject,
  makeScan,
  type Scan,
} from '../../plan/logical/index.js';
import type { Field } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import { NATURAL_MARKER } from '../rewrite/natural-join.js';
import { bindExpr, type ExprContext, type ParamBinder } from './bind-expr.js';
import { aliasJoin } from './bind-join-alias.js';
import { bindRecursiveCte, workTableReference } from './bind-recursive.js';
import { requireBool, unify } from './coerce.js';
import { columnName, plainColumns, Scope, type ScopeColumn } from './scope.js';

/** A WITH entry: bound on first use; shared (one computation) when the statement references it twice or more. */
export interface CteDefinition {
  readonly name: string;
  readonly ast: Ast;
  readonly columns: readonly string[] | null;
  readonly references: number;
  /** The CTEs visible to this one's body (those defined before it). */
  readonly ctes: ReadonlyMap<string, CteDefinition>;
  /** The scope enclosing the WITH (a WITH inside a subquery may read the outer query's columns). */
  readonly outer?: Scope | null;
  bound: LogicalPlan | null;
  id: number;
  /** WITH RECURSIVE: the body reads the CTE itself (a `RecursiveCte`). */
  readonly recursive?: boolean;
  /** Set while the body is being bound (a reference then is recursion). */
  binding?: boolean;
  /** Set while the recursive term is being bound: the columns its self-reference reads, and the CTE's id. */
  workTable?: { readonly id: number; readonly fields: readonly Field[] } | null;
}

export interface BindContext {
  readonly catalog: Catalog;
  readonly params: ParamBinder;
  /** CTEs in scope, by lower-cased name. */
  readonly ctes: ReadonlyMap<string, CteDefinition>;
  /** The enclosing query's scope, for correlated references in a subquery. */
  readonly outer: Scope | null;
  /** Statement-wide counter naming subqueries and shared CTEs. */
  readonly ids: { next: number };
  /** The CTE whose body is being bound, if any (a reference to it is its recursive self-reference). */
  readonly cteBody?: CteDefinition;
  /** Binds a nested query (derived table, subquery or CTE body) in a given context. */
  readonly bindQuery: (ast: Ast, ctx: BindContext) => LogicalPlan;
}

/** A FROM clause's plan and how each of its columns may be named. */
export interface Relation {
  readonly plan: LogicalPlan;
  readonly columns: readonly ScopeColumn[];
}

const NO_FROM: Relation = { plan: { kind: 'values', rows: [[]], schema: { fields: [] } }, columns: [] };

export function bindFrom(from: Ast[] | null, ctx: BindContext): Relation {
  if (!from || from.length === 0) return NO_FROM;
  let rel: Relation | null = null;
  const aliases = new Set<string>();
  for (const item of from) {
    const lateral = rel !== null && isLateral(item);
    // A LATERAL subquery reads the items before it as outer references; decorrelation makes the join.
    const next = bindItem(item, lateral ? { ...ctx, outer: new Scope(rel!.columns, ctx.outer) } : ctx, aliases);
    if (rel === null) rel = next;
    else if (item.join) rel = joinRelations(rel, next, item, ctx, lateral);
    else {
      const plan = makeJoin('inner', rel.plan, next.plan, null, { lateral });
      rel = { plan, columns: [...rel.columns, ...next.columns] };
    }
  }
  return rel!;
}

function isLateral(item: Ast): boolean {
  if (!item.prefix || String(item.prefix).toLowerCase() !== 'lateral') return false;
  if (!item.expr?.ast && item.expr?.type !== 'values')
    throw new NotSupportedError('LATERAL on anything but a subquery or VALUES is not supported yet');
  return true;
}

function bindItem(item: Ast, ctx: BindContext, aliases: Set<string>): Relation {
  const { alias, columns } = parseAlias(item.as);
  if (item.expr?.type === 'tables') {
    const inner = bindFrom(item.expr.expr, ctx);
    if (!alias) return inner;
    claim(aliases, alias);
    return aliasJoin(inner, alias, columns);
  }
  let rel: Relation;
  if (item.expr) {
    const body = item.expr.ast ?? item.expr;
    const name = alias ?? 'unnamed_subquery';
    claim(aliases, name);
    // A derived table sees the enclosing query's columns (not its FROM siblings: that takes LATERAL).
    rel = requalify(ctx.bindQuery(body, ctx), name, columns);
  } else {
    const cte = item.db ? undefined : ctx.ctes.get(String(item.table).toLowerCase());
    if (cte) {
      const name = alias ?? cte.name;
      claim(aliases, name);
      rel = bindCteReference(cte, name, columns, ctx);
    } else {
      const scan = bindTable(item, alias, ctx.catalog);
      claim(aliases, scan.alias);
      rel = requalify(scan, scan.alias, columns, true);
    }
  }
  return rel;
}

function claim(aliases: Set<string>, name: string): void {
  const key = name.toLowerCase();
  if (aliases.has(key)) throw new PlanError(`table name "${name}" specified more than once`);
  aliases.add(key);
}

/** `t`, `t(a, b)` (the parser keeps column aliases in the alias string). */
function parseAlias(as: unknown): { alias: string | null; columns: string[] | null } {
  if (as === null || as === undefined) return { alias: null, columns: null };
  const text = String(as);
  const m = /^\s*("?)([^"(]+)\1\s*\((.*)\)\s*$/s.exec(text);
  if (!m) return { alias: text, columns: null };
  const columns = m[3]!.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
  return { alias: m[2]!.trim(), columns };
}

function bindTable(item: Ast, alias: string | null, catalog: Catalog): Scan {
  // node-sql-parser reads `c.s.t` as {db: c, schema: s, table: t}.
  const prefix = [item.db, item.schema].filter((p) => p !== null && p !== undefined && p !== '');
  const name = [...prefix, item.table].join('.');
  const provider = catalog.table(name) ?? (item.db && !item.schema ? catalog.table(String(item.table)) : undefined);
  if (!provider) {
    throw new PlanError(
      `table "${name}" does not exist; available tables: ${catalog.tableNames().join(', ') || '(none)'}`,
    );
  }
  const names = catalog.tableNames();
  const lookedUp = provider === catalog.table(name) ? name : String(item.table);
  const tableName =
    names.find((t) => t === lookedUp) ?? names.find((t) => t.toLowerCase() === lookedUp.toLowerCase()) ?? lookedUp;
  // A three-part name's columns are qualified by the table's own name, as in PostgreSQL (`t.a FROM c.s.t`).
  const qualifier = alias ?? (item.schema ? String(item.table) : tableName);
  const fields = provider.schema.fields.map((f) => ({ ...f, qualifier }));
  return makeScan(tableName, qualifier, { fields });
}

/**
 * The plan's columns under a new qualifier (and names, from a column alias list). A table keeps its scan
 * when no column is renamed; anything else gets a projection.
 */
function requalify(plan: LogicalPlan, alias: string, names: readonly string[] | null, isScan = false): Relation {
  const fields = plan.schema.fields;
  if (names && names.length > fields.length)
    throw new PlanError(
      `table "${alias}" has ${fields.length} columns available but ${names.length} columns specified`,
    );
  if (isScan && !names) return { plan, columns: plainColumns(plan.schema) };
  const out: Field[] = fields.map((f, i) => ({ ...f, name: names?.[i] ?? f.name, qualifier: alias }));
  const exprs = fields.map((f) => col(f.qualifier, f.name, f.type));
  const projected = makeProject(plan, exprs, out);
  return { plan: projected, columns: plainColumns(projected.schema) };
}

function bindCteReference(
  cte: CteDefinition,
  alias: string,
  names: readonly string[] | null,
  ctx: BindContext,
): Relation {
  if (cte.binding) return recursiveReference(cte, alias, names, ctx);
  // A body inlined once may read the outer query's columns (decorrelation sees them); a shared one is a leaf.
  const bindBody = () => {
    if (cte.recursive) return bindRecursiveCte(cte, ctx);
    cte.binding = true;
    let body: LogicalPlan;
    try {
      body = cte.references < 2 ? bindCteBody(cte, cte.outer ?? null, ctx) : bindSharedBody(cte, ctx);
    } finally {
      cte.binding = false;
    }
    if (!cte.columns) return body;
    return requalify(body, cte.name, cte.columns).plan;
  };
  if (cte.references < 2) return requalify(bindBody(), alias, names);
  if (cte.bound === null) {
    cte.bound = bindBody();
    // A recursive CTE's readers share the number its RecursiveCte and WorkTableScan show in EXPLAIN.
    cte.id = cte.bound.kind === 'recursive_cte' ? cte.bound.id : ctx.ids.next++;
  }
  const body = cte.bound;
  if (names && names.length > body.schema.fields.length)
    throw new PlanError(
      `table "${alias}" has ${body.schema.fields.length} columns available but ${names.length} columns specified`,
    );
  const fields = body.schema.fields.map((f, i) => ({ ...f, name: names?.[i] ?? f.name, qualifier: alias }));
  const plan: LogicalPlan = { kind: 'cte_scan', id: cte.id, name: cte.name, alias, plan: body, schema: { fields } };
  return { plan, columns: plainColumns(plan.schema) };
}

/** A reference to a CTE whose body is being bound: its recursive term's self-reference, or an error. */
function recursiveReference(
  cte: CteDefinition,
  alias: string,
  names: readonly string[] | null,
  ctx: BindContext,
): Relation {
  if (ctx.cteBody !== cte) throw new NotSupportedError('mutual recursion between WITH items is not supported yet');
  if (!cte.workTable)
    throw new PlanError(`recursive reference to query "${cte.name}" must not appear within its non-recursive term`);
  return workTableReference(cte, alias, names);
}

function bindCteBody(cte: CteDefinition, outer: Scope | null, ctx: BindContext): LogicalPlan {
  return ctx.bindQuery(cte.ast, { ...ctx, ctes: cte.ctes, outer, cteBody: cte });
}

/** A shared body is computed once for all references: one reading the outer query's columns is refused. */
function bindSharedBody(cte: CteDefinition, ctx: BindContext): LogicalPlan {
  try {
    return bindCteBody(cte, null, ctx);
  } catch (e) {
    if (!(e instanceof PlanError) || !cte.outer) throw e;
    try {
      bindCteBody(cte, cte.outer, ctx);
    } catch {
      throw e;
    }
    throw new NotSupportedError(
      `a WITH query referenced more than once that reads the outer query's columns ("${cte.name}") is not supported yet`,
    );
  }
}

const JOIN_TYPES: Record<string, JoinType> = { INNER: 'inner', LEFT: 'left', RIGHT: 'right', FULL: 'full' };

function joinRelations(left: Relation, right: Relation, item: Ast, ctx: BindContext, lateral: boolean): Relation {
  const words = String(item.join).toUpperCase();
  if (words.startsWith('CROSS')) {
    const plan = makeJoin('inner', left.plan, right.plan, null, { lateral });
    return { plan, columns: [...left.columns, ...right.columns] };
  }
  const type = JOIN_TYPES[words.split(/\s+/)[0]!] ?? 'inner';
  if (item.using) {
    if (lateral) throw new NotSupportedError('JOIN LATERAL … USING is not supported yet; use ON');
    const names: string[] = item.using.map(usingName);
    return joinUsing(
      left,
      right,
      type,
      names.length === 1 && names[0] === NATURAL_MARKER ? commonNames(left, right) : names,
    );
  }
  const columns = [...left.columns, ...right.columns];
  if (!item.on) throw new PlanError(`${words} requires an ON or USING clause`);
  const on = item.on;
  const scope = new Scope(columns, ctx.outer);
  const query = (sub: Ast) => ctx.bindQuery(sub, { ...ctx, outer: scope });
  const exprCtx: ExprContext = { scope, params: ctx.params, aggregates: 'JOIN conditions', query, ids: ctx.ids };
  const cond = requireBool(bindExpr(on, exprCtx), 'JOIN/ON');
  return { plan: makeJoin(type, left.plan, right.plan, cond, { lateral }), columns };
}

/** NATURAL JOIN: the column names both sides have (PostgreSQL: a cross join when there are none). */
function commonNames(left: Relation, right: Relation): string[] {
  const rightNames = new Set(right.columns.filter((c) => c.byName).map((c) => columnName(c).toLowerCase()));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of left.columns) {
    const n = columnName(c).toLowerCase();
    if (c.byName && rightNames.has(n) && !seen.has(n)) {
      seen.add(n);
      out.push(columnName(c));
    }
  }
  return out;
}

function usingName(u: Ast): string {
  return String(u.value ?? u.column?.expr?.value ?? u);
}

/**
 * `JOIN … USING (k)`: one merged `k` (the left's, the right's for RIGHT JOIN, coalesced for FULL) comes first
 * and is what `k` and `*` name; the two source columns stay reachable as `a.k` and `b.k`.
 */
function joinUsing(left: Relation, right: Relation, type: JoinType, names: readonly string[]): Relation {
  const pick = (rel: Relation, name: string, side: string): ScopeColumn => {
    const hits = rel.columns.filter((c) => c.byName && columnName(c).toLowerCase() === name.toLowerCase());
    if (hits.length === 0)
      throw new PlanError(`column "${name}" specified in USING clause does not exist in ${side} table`);
    if (hits.length > 1) throw new PlanError(`common column name "${name}" appears more than once in ${side} table`);
    return hits[0]!;
  };
  const pairs = names.map((n) => [pick(left, n, 'left'), pick(right, n, 'right')] as const);
  const conds: Expr[] = [];
  const merged: { expr: Expr; field: Field }[] = [];
  for (const [l, r] of pairs) {
    const [le, re, t] = unify(asColumn(l.field), asColumn(r.field), 'JOIN/USING');
    conds.push({ kind: 'binary', op: '=', left: le, right: re, type: { id: 'bool' } });
    const expr: Expr =
      type === 'full' ? { kind: 'call', name: 'coalesce', args: [le, re], type: t } : type === 'right' ? re : le;
    merged.push({ expr, field: { name: columnName(l), qualifier: null, type: t, nullable: true } });
  }
  const join = makeJoin(type, left.plan, right.plan, conjoin(conds));
  const used = new Set(pairs.flat());
  const rest = [...left.columns, ...right.columns];
  const plan = makeProject(
    join,
    [...merged.map((m) => m.expr), ...rest.map((c) => asColumn(c.field))],
    [...merged.map((m) => m.field), ...join.schema.fields],
  );
  const columns: ScopeColumn[] = [
    ...merged.map((m) => ({ field: m.field, byName: true, inStar: true })),
    ...rest.map((c, i) => ({
      ...c,
      field: plan.schema.fields[merged.length + i]!,
      byName: c.byName && !used.has(c),
      inStar: c.inStar && !used.has(c),
    })),
  ];
  return { plan, columns };
}

function asColumn(f: Field): Expr {
  return col(f.qualifier, f.name, f.type);
}
