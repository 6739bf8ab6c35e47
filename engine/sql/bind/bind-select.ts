// `bindSelect` turns a SELECT AST into a logical plan: FROM, WHERE, GROUP BY/HAVING, SELECT, DISTINCT, ORDER BY, LIMIT.
import { NotSupportedError, PlanError } from '../../errors.js';
import { exprText } from '../../plan/expr/display.js';
import { columnsOf, type Expr } from '../../plan/expr/index.js';
import {
  GROUPING_ID_COLUMN,
  type LogicalPlan,
  makeFilter,
  makeLimit,
  makeProject,
  makeSort,
  type SortKey,
} from '../../plan/logical/index.js';
import { makeWindow } from '../../plan/logical/window.js';
import { type Field, INT32 } from '../../plan/types.js';
import { type Ast, astText } from '../parse.js';
import { AggregateCollector, groupFields, overAggregate } from './bind-aggregate.js';
import { checkDistinctOnOrder, distinctOnPlan, isDistinctOn } from './bind-distinct-on.js';
import { bindExpr, type ExprContext } from './bind-expr.js';
import { type BindContext, bindFrom } from './bind-from.js';
import { bindGroupBy, resolveGrouping } from './bind-grouping.js';
import { bindLimit } from './bind-limit.js';
import { WindowCollector, windowOutputName } from './bind-window.js';
import { requireBool } from './coerce.js';
import { Scope } from './scope.js';

interface SelectItem {
  readonly expr: Expr;
  readonly name: string;
  readonly qualifier: string | null;
}

type PositionedKey = Omit<SortKey, 'expr'> & { readonly at: number };

type PendingKey = { readonly output: number } | { readonly expr: Expr };

export function bindSelect(ast: Ast, ctx: BindContext): LogicalPlan {
  rejectUnsupported(ast);
  const from = bindFrom(ast.from, ctx);
  let plan = from.plan;
  const scope = new Scope(from.columns, ctx.outer);
  const query = (sub: Ast) => ctx.bindQuery(sub, { ...ctx, outer: scope });
  const base = { scope, params: ctx.params, query, ids: ctx.ids };
  const noWindows = (clause: string) => `window functions are not allowed in ${clause}`;
  if (ast.where) {
    const where = bindExpr(ast.where, { ...base, aggregates: 'WHERE', windows: noWindows('WHERE') });
    plan = makeFilter(plan, requireBool(where, 'WHERE'));
  }

  // HAVING alone makes the query grouped too (PostgreSQL: SELECT 1 FROM t HAVING true is one row)
  const aggregating =
    Boolean(ast.groupby?.columns?.length || ast.having) || [ast.columns, ast.orderby, ast.window].some(hasAggregate);
  const collector = aggregating ? new AggregateCollector() : null;
  const windows = new WindowCollector(ast.window ?? null);
  const exprCtx: ExprContext = { ...base, aggregates: collector ?? 'this query without GROUP BY', windows };
  let items = bindItems(ast.columns, exprCtx);
  let having = ast.having
    ? requireBool(
        bindExpr(ast.having, { ...exprCtx, aggregates: collector ?? 'HAVING', windows: noWindows('HAVING') }),
        'HAVING',
      )
    : null;
  let keys = (ast.orderby ?? []).map((o: Ast) => pendingKey(o, items, exprCtx));
  let onKeys: PendingKey[] = isDistinctOn(ast)
    ? ast.distinct.columns.map((c: Ast) => pendingKey(c, items, exprCtx))
    : [];

  if (collector) {
    const grouping = bindGroupBy(ast.groupby?.columns ?? [], (g: Ast) =>
      notDerived(
        bindGroupItem(g, items, { ...base, aggregates: 'GROUP BY', windows: noWindows('GROUP BY') }),
        // GROUPING(…) too: PostgreSQL counts it as an aggregate here (its placeholder column has no input yet).
        [...collector.calls.map((c) => c.name), ...collector.groupings.map((g) => g.name)],
        windows.names,
      ),
    );
    const { groupBy, sets } = grouping;
    const fields = [
      ...groupFields(groupBy),
      ...collector.calls.map(
        (c): Field => ({ name: c.name, qualifier: null, type: c.type, nullable: c.fn !== 'count' }),
      ),
      ...(sets ? [{ name: GROUPING_ID_COLUMN, qualifier: null, type: INT32, nullable: false }] : []),
    ];
    plan = {
      kind: 'aggregate',
      input: plan,
      groupBy,
      ...(sets ? { groupingSets: sets } : {}),
      aggregates: collector.calls,
      schema: { fields },
    };
    const names = new Set([
      ...collector.calls.map((c) => c.name),
      ...(sets ? [GROUPING_ID_COLUMN] : []),
      ...windows.names,
    ]);
    const lift = (e: Expr) => overAggregate(resolveGrouping(e, collector.groupings, grouping), groupBy, fields, names);
    items = items.map((it) => ({ ...it, expr: lift(it.expr) }));
    having = having ? lift(having) : null;
    keys = keys.map((k: PendingKey) => ('expr' in k ? { expr: lift(k.expr) } : k));
    onKeys = onKeys.map((k: PendingKey) => ('expr' in k ? { expr: lift(k.expr) } : k));
    windows.mapExprs(lift);
  }
  if (having) plan = makeFilter(plan, having);
  if (windows.calls.length > 0) plan = makeWindow(plan, windows.calls);

  const distinct = ast.distinct?.type === 'DISTINCT';
  const hidden: Expr[] = [];
  // Each ORDER BY key as a position in the projection (hidden columns follow the select list).
  const position = (k: PendingKey): number => {
    if ('output' in k) return k.output;
    const text = exprText(k.expr);
    const at = items.findIndex((it) => exprText(it.expr) === text);
    if (at >= 0) return at;
    if (distinct) throw new PlanError('for SELECT DISTINCT, ORDER BY expressions must appear in select list');
    const h = hidden.findIndex((e) => exprText(e) === text);
    if (h >= 0) return items.length + h;
    hidden.push(k.expr);
    return items.length + hidden.length - 1;
  };
  const onAt = onKeys.map(position);
  const sortKeys: PositionedKey[] = (ast.orderby ?? []).map((o: Ast, i: number) => {
    const at = position(keys[i] as PendingKey);
    const ascending = String(o.type ?? 'ASC').toUpperCase() !== 'DESC';
    const nulls = String(o.nulls ?? '').toUpperCase();
    // PostgreSQL: NULLS LAST for ASC, NULLS FIRST for DESC unless stated.
    const nullsFirst = nulls ? nulls.includes('FIRST') : !ascending;
    return { at, ascending, nullsFirst };
  });

  const outNames = uniqueNames(items.map((it) => it.name));
  const fields: Field[] = items.map((it, i) => ({
    name: outNames[i]!,
    qualifier: it.qualifier,
    type: it.expr.type,
    nullable: mayBeNull(it.expr, plan.schema.fields),
  }));
  const hiddenFields: Field[] = hidden.map((e, i) => ({
    name: `__sort_${i}`,
    qualifier: null,
    type: e.type,
    nullable: true,
  }));
  plan = makeProject(plan, [...items.map((it) => it.expr), ...hidden], [...fields, ...hiddenFields]);
  if (distinct) plan = distinctOver(plan);
  const all = plan.schema.fields;
  const resolved = sortKeys.map((k): SortKey => {
    const f = all[k.at]!;
    const expr: Expr = { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type };
    return { expr, ascending: k.ascending, nullsFirst: k.nullsFirst };
  });
  if (isDistinctOn(ast)) {
    checkDistinctOnOrder(
      onAt,
      sortKeys.map((k) => k.at),
    );
    plan = distinctOnPlan(plan, onAt, resolved);
  }
  if (sortKeys.length > 0) plan = makeSort(plan, resolved);
  if (hidden.length > 0 || isDistinctOn(ast)) {
    plan = makeProject(
      plan,
      fields.map((f): Expr => ({ kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type })),
      fields,
    );
  }
  const limit = bindLimit(ast.limit, ctx.params);
  if (limit) plan = makeLimit(plan, limit.skip, limit.fetch);
  return plan;
}

function rejectUnsupported(ast: Ast): void {
  if (ast.type !== 'select')
    throw new NotSupportedError(`${String(ast.type).toUpperCase()} statements are not supported yet`);
  if (ast._next || ast.set_op) throw new NotSupportedError('UNION, INTERSECT and EXCEPT are not supported yet');
}

function hasAggregate(ast: Ast): boolean {
  if (ast === null || typeof ast !== 'object') return false;
  if (Array.isArray(ast)) return ast.some(hasAggregate);
  // `sum(x) OVER …` is a window call; aggregates inside it (`rank() OVER (ORDER BY sum(x))`) still count.
  if (ast.over) return hasAggregate(ast.args) || hasAggregate(ast.over);
  if (ast.type === 'aggr_func') return true;
  if (ast.type === 'function') {
    const name = (ast.name?.name ?? [])
      .map((p: Ast) => p.value)
      .join('.')
      .toLowerCase();
    if (['count', 'sum', 'avg', 'min', 'max'].includes(name)) return true;
  }
  if (ast.type === 'select' || ast.type === 'set_op' || ast.type === 'values' || ast.ast) return false;
  return Object.values(ast).some(hasAggregate);
}

function bindItems(columns: Ast[], ctx: ExprContext): SelectItem[] {
  const out: SelectItem[] = [];
  for (const c of columns) {
    // `SELECT $1::int + 1` arrives with the cast as the item itself rather than under `expr`.
    const e = c.type === 'cast' ? c : c.expr;
    const starName =
      e?.type === 'column_ref' ? (typeof e.column === 'string' ? e.column : e.column?.expr?.value) : null;
    if (e?.type === 'star' || starName === '*') {
      // `t.*` carries the table as {type, value} in this parser version.
      const table = e.table ? String(typeof e.table === 'string' ? e.table : e.table.value) : null;
      const fields = ctx.scope.starFields(table);
      if (table && fields.length === 0) throw new PlanError(`missing FROM-clause entry for table "${table}"`);
      for (const f of fields)
        out.push({
          expr: { kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type },
          name: f.name,
          qualifier: f.qualifier,
        });
      continue;
    }
    const expr = bindExpr(e, ctx);
    const name = c.as
      ? String(c.as)
      : (windowOutputName(e) ?? (expr.kind === 'column' ? expr.name : outputName(e, expr)));
    out.push({ expr, name, qualifier: !c.as && expr.kind === 'column' ? expr.qualifier : null });
  }
  return out;
}

/** PostgreSQL names a cast of a column after the column; other expressions by their SQL text as written. */
function outputName(ast: Ast, e: Expr): string {
  if (e.kind === 'cast' && e.expr.kind === 'column') return e.expr.name;
  // PostgreSQL names a scalar subquery after its column, and EXISTS `exists`.
  if (e.kind === 'subquery' && e.subquery === 'scalar') return e.plan.schema.fields[0]!.name;
  if (e.kind === 'subquery' && e.subquery === 'exists' && !e.negated) return 'exists';
  if (ast.type === 'cast' && ast.expr?.type === 'column_ref')
    return String(ast.expr.column?.expr?.value ?? ast.expr.column);
  return clipName(astText(ast));
}

/** PostgreSQL's longest name, in bytes (NAMEDATALEN - 1). */
const MAX_NAME_BYTES = 63;

/**
 * The first 63 bytes of an expression's text, cut at a character boundary: PostgreSQL never names a column longer.
 * A name is repeated in every row of a JSON answer: `rpad(col, 0, '<10,000 x>')` over 6,000 rows answered 61 MB.
 */
function clipName(text: string): string {
  if (text.length <= MAX_NAME_BYTES / 3) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > MAX_NAME_BYTES) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

function pendingKey(o: Ast, items: readonly SelectItem[], ctx: ExprContext): PendingKey {
  const e = o.expr;
  if (e.type === 'number') {
    const at = Number(e.value);
    if (!Number.isInteger(at) || at < 1 || at > items.length)
      throw new PlanError(`ORDER BY position ${e.value} is not in select list`);
    return { output: at - 1 };
  }
  if (e.type === 'column_ref' && !e.table) {
    const name = String(e.column?.expr?.value ?? e.column);
    let at = items.findIndex((it) => it.name === name);
    if (at < 0) at = items.findIndex((it) => it.name.toLowerCase() === name.toLowerCase());
    if (at >= 0) return { output: at };
  }
  return { expr: bindExpr(e, ctx) };
}

function bindGroupItem(g: Ast, items: readonly SelectItem[], ctx: ExprContext): Expr {
  if (g.type === 'number') {
    const at = Number(g.value);
    if (!Number.isInteger(at) || at < 1 || at > items.length)
      throw new PlanError(`GROUP BY position ${g.value} is not in select list`);
    return items[at - 1]!.expr;
  }
  if (g.type === 'column_ref' && !g.table) {
    const name = String(g.column?.expr?.value ?? g.column);
    const isInput = ctx.scope.fields.some((f) => f.name.toLowerCase() === name.toLowerCase());
    const item = items.find((it) => it.name === name);
    if (!isInput && item) return item.expr;
  }
  return bindExpr(g, ctx);
}

/** A GROUP BY position or output name must not stand for an aggregate or window result (`SELECT sum(1) GROUP BY 1`). */
function notDerived(e: Expr, aggregates: readonly string[], windows: readonly string[]): Expr {
  for (const c of columnsOf(e)) {
    if (c.qualifier !== null) continue;
    if (aggregates.includes(c.name)) throw new PlanError('aggregate functions are not allowed in GROUP BY');
    if (windows.includes(c.name)) throw new PlanError('window functions are not allowed in GROUP BY');
  }
  return e;
}

/** SELECT DISTINCT (and UNION without ALL): an Aggregate grouping by every column, with no aggregates. */
export function distinctOver(plan: LogicalPlan): LogicalPlan {
  const groupBy = plan.schema.fields.map(
    (f): Expr => ({ kind: 'column', qualifier: f.qualifier, name: f.name, type: f.type }),
  );
  return { kind: 'aggregate', input: plan, groupBy, aggregates: [], schema: plan.schema };
}

function uniqueNames(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = seen.get(n) ?? 0;
    seen.set(n, k + 1);
    return k === 0 ? n : `${n}_${k}`;
  });
}

/** Nullability of an output column: a column keeps its source's flag, a literal is known; anything else may be NULL. */
function mayBeNull(e: Expr, input: readonly Field[]): boolean {
  if (e.kind === 'literal') return e.value === null;
  if (e.kind !== 'column') return true;
  const f = input.find((x) => x.name === e.name && x.qualifier === e.qualifier);
  return f?.nullable ?? true;
}
