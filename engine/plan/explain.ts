// EXPLAIN text: one line per logical node, children indented under their parent.
import { exprText } from './expr/display.js';
import { type LogicalPlan, planChildren, type Scan } from './logical/index.js';
import { windowCallText } from './logical/window.js';
import { writeLine } from './logical/write.js';

/** Lines of the plan; `scanDetail` adds provider facts (files, row groups kept) to scan lines. */
export function explainLines(plan: LogicalPlan, scanDetail: ReadonlyMap<Scan, string> = new Map()): string[] {
  const out: string[] = [];
  const shown = new Set<number>();
  const walk = (p: LogicalPlan, depth: number) => {
    const line = nodeLine(p, scanDetail);
    if (p.kind === 'cte_scan') {
      // A shared CTE is printed once, under its first reference.
      const first = !shown.has(p.id);
      shown.add(p.id);
      out.push(`${'  '.repeat(depth)}${line}${first ? '' : ' (shared)'}`);
      if (first) walk(p.plan, depth + 1);
      return;
    }
    out.push(`${'  '.repeat(depth)}${line}`);
    const children = p.kind === 'recursive_cte' ? [p.anchor, p.recursive] : planChildren(p);
    for (const child of children) walk(child, depth + 1);
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
    case 'aggregate': {
      const groupBy = p.groupBy.map(exprText);
      const sets = p.groupingSets
        ? `, sets=[${p.groupingSets.map((s) => `(${s.map((i) => groupBy[i]).join(', ')})`).join(', ')}]`
        : '';
      return `Aggregate: groupBy=[${groupBy.join(', ')}]${sets}, aggr=[${p.aggregates.map((a) => a.name).join(', ')}]`;
    }
    case 'sort': {
      const keys = p.keys.map(
        (k) => `${exprText(k.expr)} ${k.ascending ? 'ASC' : 'DESC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`,
      );
      return `${p.fetch !== null ? 'TopK' : 'Sort'}: ${keys.join(', ')}${p.fetch !== null ? `, fetch=${p.fetch}` : ''}`;
    }
    case 'limit':
      return `Limit: skip=${p.skip}, fetch=${p.fetch ?? 'none'}`;
    case 'join': {
      const flags = [
        p.nullAware ? 'null-aware' : '',
        p.singleMatch ? 'single' : '',
        p.buildLeft ? 'build=left' : '',
        p.mark ? `as ${p.mark.qualifier ? `${p.mark.qualifier}.` : ''}${p.mark.name}` : '',
      ];
      const type = p.on === null && p.joinType === 'inner' ? 'cross' : p.joinType;
      const head = [`Join: ${type}`, ...flags.filter(Boolean)].join(' ');
      return p.on ? `${head} on ${exprText(p.on)}` : head;
    }
    case 'cte_scan':
      return `CteScan: ${p.name}${p.alias !== p.name ? ` AS ${p.alias}` : ''} (cte #${p.id})`;
    case 'recursive_cte':
      return `RecursiveCte: ${p.name} UNION${p.all ? ' ALL' : ''} (cte #${p.id})`;
    case 'work_table_scan':
      return `WorkTableScan: ${p.name}${p.alias !== p.name ? ` AS ${p.alias}` : ''} (cte #${p.id})`;
    case 'union':
      return 'Union';
    case 'set_op':
      return `SetOp: ${p.op.toUpperCase()}${p.all ? ' ALL' : ''}`;
    case 'window':
      return `Window: ${p.calls.map((c) => windowCallText(c, exprText)).join(', ')}`;
    case 'insert':
    case 'create_table':
    case 'drop_table':
    case 'create_schema':
      return writeLine(p);
  }
}

function aliased(text: string, name: string): string {
  const bare = text.includes('.') ? text.slice(text.lastIndexOf('.') + 1) : text;
  return bare === name || text === name ? text : `${text} AS ${name}`;
}
