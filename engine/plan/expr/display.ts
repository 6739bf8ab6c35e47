// `exprText` prints an expression as SQL-like text: used in EXPLAIN and to match GROUP BY expressions.
import { typeName } from '../types.js';
import { formatDate, formatDecimal, formatFloat, formatTimestamp } from '../values.js';
import type { Expr, LiteralExpr } from './index.js';

const UNARY_TEXT: Record<string, [string, string]> = {
  not: ['NOT ', ''],
  neg: ['-', ''],
  is_null: ['', ' IS NULL'],
  is_not_null: ['', ' IS NOT NULL'],
  is_true: ['', ' IS TRUE'],
  is_false: ['', ' IS FALSE'],
  is_not_true: ['', ' IS NOT TRUE'],
  is_not_false: ['', ' IS NOT FALSE'],
};

export function exprText(e: Expr): string {
  switch (e.kind) {
    case 'column':
      return e.qualifier ? `${e.qualifier}.${e.name}` : e.name;
    case 'outer_column':
      return `outer(${e.qualifier ? `${e.qualifier}.` : ''}${e.name})`;
    case 'subquery': {
      const not = e.negated ? 'NOT ' : '';
      if (e.subquery === 'exists') return `${not}EXISTS (subquery #${e.id})`;
      if (e.subquery === 'in') return `${wrap(e.expr!)} ${not}IN (subquery #${e.id})`;
      if (e.subquery === 'any' || e.subquery === 'all')
        return `${not}${wrap(e.expr!)} ${e.op} ${e.subquery.toUpperCase()} (subquery #${e.id})`;
      return `(subquery #${e.id})`;
    }
    case 'literal':
      return literalText(e);
    case 'binary': {
      const op = e.op === 'and' || e.op === 'or' ? e.op.toUpperCase() : e.op;
      return `${wrap(e.left)} ${op} ${wrap(e.right)}`;
    }
    case 'unary': {
      const [pre, post] = UNARY_TEXT[e.op]!;
      return `${pre}${wrap(e.expr)}${post}`;
    }
    case 'cast':
      return `CAST(${exprText(e.expr)} AS ${typeName(e.type)})`;
    case 'call':
      return `${e.name}(${e.args.map(exprText).join(', ')})`;
    case 'case': {
      const whens = e.whens.map((w) => ` WHEN ${exprText(w.when)} THEN ${exprText(w.result)}`).join('');
      return `CASE${whens}${e.otherwise ? ` ELSE ${exprText(e.otherwise)}` : ''} END`;
    }
    case 'in_list':
      return `${wrap(e.expr)} ${e.negated ? 'NOT IN' : 'IN'} (${e.list.map(exprText).join(', ')})`;
    case 'like': {
      const op = `${e.negated ? 'NOT ' : ''}${e.caseInsensitive ? 'ILIKE' : 'LIKE'}`;
      const esc = e.escape === '\\' ? '' : ` ESCAPE '${e.escape}'`;
      return `${wrap(e.expr)} ${op} ${exprText(e.pattern)}${esc}`;
    }
  }
}

function wrap(e: Expr): string {
  const text = exprText(e);
  return e.kind === 'binary' || e.kind === 'like' || e.kind === 'in_list' ? `(${text})` : text;
}

export function literalText(e: LiteralExpr): string {
  const v = e.value;
  if (v === null) return 'NULL';
  switch (e.type.id) {
    case 'utf8':
      return `'${String(v).replaceAll("'", "''")}'`;
    case 'decimal':
      return formatDecimal(v as number | bigint, e.type.scale);
    case 'float64':
      return formatFloat(v as number);
    case 'date':
      return `DATE '${formatDate(v as number)}'`;
    case 'timestamp':
      return `TIMESTAMP '${formatTimestamp(v as number)}'`;
    case 'interval': {
      // Interval columns hold text: a literal folded from one may carry its text instead of the three fields.
      if (typeof v === 'string') return `INTERVAL '${v.replaceAll("'", "''")}'`;
      const i = v as { months: number; days: number; micros: number };
      return `INTERVAL '${i.months} months ${i.days} days ${i.micros / 1e6} seconds'`;
    }
    default:
      return String(v);
  }
}
