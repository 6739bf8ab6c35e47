// `bindRecursiveCte`: a WITH RECURSIVE entry that reads itself becomes a `RecursiveCte` over its two terms.
import { NotSupportedError, PlanError } from '../../errors.js';
import type { LogicalPlan, RecursiveCte } from '../../plan/logical/index.js';
import { type DataType, decimal, type Field, sameType, typeName, UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import type { BindContext, CteDefinition, Relation } from './bind-from.js';
import { castArm, outputExprs } from './cast-arm.js';
import { castTo, unifyAll } from './coerce.js';
import { plainColumns } from './scope.js';

/**
 * PostgreSQL's form: `non_recursive_term UNION [ALL] recursive_term`, the recursive term reading the CTE once.
 * Column types are the non-recursive term's; a recursive term of another type is an error, as in PostgreSQL,
 * except that decimals of one scale widen to numeric(38, scale) (floe types every numeric with a precision,
 * where PostgreSQL's literals and arithmetic have none).
 */
export function bindRecursiveCte(cte: CteDefinition, ctx: BindContext): RecursiveCte {
  const node = unwrapQuery(cte.ast);
  if (node?.type !== 'set_op' || node.op !== 'union')
    throw new PlanError(
      `recursive query "${cte.name}" does not have the form non-recursive-term UNION [ALL] recursive-term`,
    );
  if (node.orderby?.length) throw new NotSupportedError('ORDER BY in a recursive query is not supported yet');
  if (node.limit?.value?.length) throw new NotSupportedError('LIMIT in a recursive query is not supported yet');
  if (node.with) throw new NotSupportedError('a WITH list inside a recursive query is not supported yet');
  const inner: BindContext = { ...ctx, ctes: cte.ctes, outer: null, cteBody: cte };
  cte.binding = true;
  try {
    const anchor = ctx.bindQuery(node.left, inner);
    let fields = cteFields(anchor, cte);
    const id = ctx.ids.next++;
    for (let widened = false; ; widened = true) {
      cte.workTable = { id, fields };
      const recursive = ctx.bindQuery(node.right, inner);
      checkRecursiveTerm(recursive, cte.name, id);
      const overall = overallTypes(anchor, recursive, fields);
      const mismatch = overall.findIndex((t, c) => !sameType(t, fields[c]!.type));
      if (mismatch < 0) {
        const types = fields.map((f) => f.type);
        const schema = { fields };
        return {
          kind: 'recursive_cte',
          id,
          name: cte.name,
          all: node.all,
          anchor: castArm(anchor, types),
          recursive: castArm(recursive, types),
          schema,
        };
      }
      const wider = widened ? null : widenDecimals(fields, overall);
      if (wider === null) throw typeMismatch(cte.name, mismatch, fields[mismatch]!.type, overall[mismatch]!);
      fields = wider;
    }
  } finally {
    cte.binding = false;
    cte.workTable = null;
  }
}

/** A reference to the CTE inside its own recursive term: a scan of the working table. */
export function workTableReference(cte: CteDefinition, alias: string, names: readonly string[] | null): Relation {
  const work = cte.workTable!;
  if (names && names.length > work.fields.length)
    throw new PlanError(
      `table "${alias}" has ${work.fields.length} columns available but ${names.length} columns specified`,
    );
  const fields = work.fields.map((f, i) => ({ ...f, name: names?.[i] ?? f.name, qualifier: alias }));
  const plan: LogicalPlan = { kind: 'work_table_scan', id: work.id, name: cte.name, alias, schema: { fields } };
  return { plan, columns: plainColumns(plan.schema) };
}

function unwrapQuery(ast: Ast): Ast {
  let node = ast;
  while (node && !['select', 'set_op', 'values'].includes(node.type) && (node.ast || node.expr))
    node = node.ast ?? node.expr;
  return node;
}

/** The CTE's columns: the non-recursive term's types (all-NULL columns are text), named by the column list. */
function cteFields(anchor: LogicalPlan, cte: CteDefinition): Field[] {
  const have = anchor.schema.fields;
  if (cte.columns && cte.columns.length > have.length)
    throw new PlanError(
      `WITH query "${cte.name}" has ${have.length} columns available but ${cte.columns.length} columns specified`,
    );
  return have.map((f, i) => ({
    name: cte.columns?.[i] ?? f.name,
    qualifier: cte.name,
    type: f.type.id === 'null' ? UTF8 : f.type,
    nullable: true,
  }));
}

/** Each column's type over both terms (PostgreSQL's UNION resolution). */
function overallTypes(anchor: LogicalPlan, recursive: LogicalPlan, fields: readonly Field[]): DataType[] {
  if (recursive.schema.fields.length !== fields.length)
    throw new PlanError('each UNION query must have the same number of columns');
  const first = outputExprs(anchor);
  const second = outputExprs(recursive);
  return fields.map((f, c) => unifyAll([castTo(first[c]!, f.type), second[c]!], 'UNION').type);
}

/** The fields with decimal columns widened to numeric(38, scale), or null when another type differs. */
function widenDecimals(fields: readonly Field[], overall: readonly DataType[]): Field[] | null {
  const out: Field[] = [];
  for (const [c, f] of fields.entries()) {
    const t = overall[c]!;
    if (sameType(t, f.type)) out.push(f);
    else if (t.id === 'decimal' && f.type.id === 'decimal' && t.scale === f.type.scale)
      out.push({ ...f, type: decimal(38, t.scale) });
    else return null;
  }
  return out;
}

function typeMismatch(name: string, c: number, declared: DataType, overall: DataType): PlanError {
  return new PlanError(
    `recursive query "${name}" column ${c + 1} has type ${typeName(declared)} in non-recursive term but type ` +
      `${typeName(overall)} overall; cast the output of the non-recursive term to the correct type`,
  );
}

/**
 * PostgreSQL's limits on where the recursive term reads the CTE: once, not inside a subquery expression, not on
 * the nullable side of an outer join, not under an aggregate.
 */
function checkRecursiveTerm(plan: LogicalPlan, name: string, id: number): void {
  let found = 0;
  const fail = (where: string) => {
    throw new PlanError(`recursive reference to query "${name}" must not appear ${where}`);
  };
  const visit = (p: LogicalPlan, aggregated: boolean, nullable: boolean): void => {
    if (p.kind === 'work_table_scan' && p.id === id) {
      if (++found > 1) fail('more than once');
      if (aggregated) throw new PlanError(`aggregate functions are not allowed in a recursive query's recursive term`);
      if (nullable) fail('within an outer join');
      return;
    }
    for (const [key, value] of Object.entries(p)) {
      if (!CHILD_KEYS.has(key) && hasWorkTable(value, id)) fail('within a subquery');
    }
    const under = aggregated || (p.kind === 'aggregate' && p.aggregates.length > 0);
    if (p.kind === 'join') {
      visit(p.left, under, nullable || p.joinType === 'right' || p.joinType === 'full');
      visit(p.right, under, nullable || p.joinType === 'left' || p.joinType === 'full');
      return;
    }
    for (const child of childPlans(p)) visit(child, under, nullable);
  };
  visit(plan, false, false);
}

/** The properties of a plan node that hold its input plans; any other plan inside a node is a subquery's. */
const CHILD_KEYS = new Set(['input', 'inputs', 'left', 'right', 'plan', 'anchor', 'recursive']);

function childPlans(p: LogicalPlan): LogicalPlan[] {
  return [...CHILD_KEYS].flatMap((k) => {
    const v = (p as unknown as Record<string, unknown>)[k];
    return Array.isArray(v) ? (v as LogicalPlan[]) : v && typeof v === 'object' ? [v as LogicalPlan] : [];
  });
}

/** Whether plain data `v` (an expression, a list of them) holds a scan of work table `id` anywhere. */
function hasWorkTable(v: unknown, id: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  const node = v as { kind?: unknown; id?: unknown };
  if (node.kind === 'work_table_scan' && node.id === id) return true;
  return Object.values(v).some((x) => hasWorkTable(x, id));
}
