// EXPLAIN text: one line per logical node, children indented under their parent.
import { exprText } from './expr/display.js';
import type { LogicalPlan, Scan } from './logical/index.js';
import { windowCallText } from './logical/window.js';

/** Lines of the plan; `scanDetail` adds provider facts (files, row groups kept) to scan lines. */
export function explainLines(plan: LogicalPlan, scanDetail: ReadonlyMap<Scan, string> = new Map()): string[] {
  const out: string[] = [];
  const walk = (p: LogicalPlan, depth: number) => {
    out.push(`${'  '.repeat(depth)}${nodeLine(p, scanDetail)}`);
    if (p.kind !== 'scan' && p.kind !== 'values') walk(p.input, depth + 1);
  };
  walk(plan, 0);
  return out;
}

function nodeLine(p: LogicalPlan, scanDetail: ReadonlyMap<Scan, string>): string {
  switch (p.kind) {
    case 'scan': {
      const parts = [`Scan: ${p.table}${p.alias !== p.table ? ` AS ${p.alias}` : ''}`];
      parts.push(`projection=[${(p.columns ?? p.tableSchema.fields.map((f) => f.name)).join(', ')}]`);
      if (p.filters.length) parts.push(`filters=[${p.filters.map(exprText).join(', ')}]`);
      if (p.limit !== null) parts.push(`limit=${p.limit}`);
      const detail = scanDetail.get(p);
      if (detail) parts.push(detail);
      return parts.join(' ');
    }
    case 'values':
      return `Values: rows=${p.rows.length}`;
    case 'filter':
      return `Filter: ${exprText(p.predicate)}`;
    case 'project':
      return `Projection: ${p.exprs.map((e, i) => aliased(exprText(e), p.schema.fields[i]!.name)).join(', ')}`;
    case 'aggregate':
      return `Aggregate: groupBy=[${p.groupBy.map(exprText).join(', ')}], aggr=[${p.aggregates.map((a) => a.name).join(', ')}]`;
    case 'sort': {
      const keys = p.keys.map(
        (k) => `${exprText(k.expr)} ${k.ascending ? 'ASC' : 'DESC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`,
      );
      return `${p.fetch !== null ? 'TopK' : 'Sort'}: ${keys.join(', ')}${p.fetch !== null ? `, fetch=${p.fetch}` : ''}`;
    }
    case 'limit':
      return `Limit: skip=${p.skip}, fetch=${p.fetch ?? 'none'}`;
    case 'window':
      return `Window: ${p.calls.map((c) => windowCallText(c, exprText)).join(', ')}`;
  }
}

function aliased(text: string, name: string): string {
  const bare = text.includes('.') ? text.slice(text.lastIndexOf('.') + 1) : text;
  return bare === name || text === name ? text : `${text} AS ${name}`;
}
