// The `Window` node: window function calls over partitions of its input, one output column per call.
import type { Expr, LiteralExpr } from '../expr/index.js';
import type { DataType, Field, Schema } from '../types.js';
import type { AggregateFn, LogicalPlan, SortKey } from './index.js';

export type RankingFn = 'row_number' | 'rank' | 'dense_rank' | 'percent_rank' | 'cume_dist' | 'ntile';
export type ValueFn = 'lag' | 'lead' | 'first_value' | 'last_value' | 'nth_value';
export type WindowFn = RankingFn | ValueFn | AggregateFn;

export type FrameUnits = 'rows' | 'range' | 'groups';
export type FrameBoundKind = 'unbounded_preceding' | 'preceding' | 'current_row' | 'following' | 'unbounded_following';
export type FrameExclusion = 'no_others' | 'current_row' | 'group' | 'ties';

export interface FrameBound {
  readonly kind: FrameBoundKind;
  /** For `n PRECEDING` / `n FOLLOWING`: a non-negative number, or an interval (RANGE over a date/timestamp). */
  readonly offset: LiteralExpr | null;
}

export interface WindowFrame {
  readonly units: FrameUnits;
  readonly start: FrameBound;
  readonly end: FrameBound;
  readonly exclude: FrameExclusion;
}

export interface WindowCall {
  readonly fn: WindowFn;
  /** Empty for COUNT(*) and the ranking functions without arguments. */
  readonly args: readonly Expr[];
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly SortKey[];
  /** Always explicit: the binder fills in SQL's default frame. Ranking and lag/lead ignore it. */
  readonly frame: WindowFrame;
  readonly type: DataType;
  /** Output column name: the call's text, e.g. `rank() OVER (PARTITION BY grp ORDER BY qty DESC)`. */
  readonly name: string;
}

/** Input columns first (unchanged), then one column per call; output row order is not defined. */
export interface Window {
  readonly kind: 'window';
  readonly input: LogicalPlan;
  readonly calls: readonly WindowCall[];
  readonly schema: Schema;
}

/** RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW: SQL's frame when the window has no frame clause. */
export const DEFAULT_FRAME: WindowFrame = {
  units: 'range',
  start: { kind: 'unbounded_preceding', offset: null },
  end: { kind: 'current_row', offset: null },
  exclude: 'no_others',
};

export function makeWindow(input: LogicalPlan, calls: readonly WindowCall[]): Window {
  return { kind: 'window', input, calls, schema: windowSchema(input.schema, calls) };
}

/** The input's fields followed by one field per call. */
export function windowSchema(input: Schema, calls: readonly WindowCall[]): Schema {
  const own = calls.map((c): Field => ({ name: c.name, qualifier: null, type: c.type, nullable: true }));
  return { fields: [...input.fields, ...own] };
}

/** `fn(args) OVER (PARTITION BY … ORDER BY … <frame>)`, printing expressions with `text`; the default frame is left out. */
export function windowCallText(call: WindowCall, text: (e: Expr) => string): string {
  const args = call.fn === 'count' && call.args.length === 0 ? '*' : call.args.map(text).join(', ');
  const parts: string[] = [];
  if (call.partitionBy.length) parts.push(`PARTITION BY ${call.partitionBy.map(text).join(', ')}`);
  if (call.orderBy.length) {
    const keys = call.orderBy.map(
      (k) => `${text(k.expr)} ${k.ascending ? 'ASC' : 'DESC'} NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}`,
    );
    parts.push(`ORDER BY ${keys.join(', ')}`);
  }
  if (!isDefaultFrame(call.frame)) parts.push(frameText(call.frame, text));
  return `${call.fn}(${args}) OVER (${parts.join(' ')})`;
}

export function isDefaultFrame(f: WindowFrame): boolean {
  return (
    f.units === 'range' &&
    f.start.kind === 'unbounded_preceding' &&
    f.end.kind === 'current_row' &&
    f.exclude === 'no_others'
  );
}

function frameText(f: WindowFrame, text: (e: Expr) => string): string {
  const bound = (b: FrameBound) => {
    const words = b.kind.replace('_', ' ').toUpperCase();
    return b.offset ? `${text(b.offset)} ${words}` : words;
  };
  const exclude = f.exclude === 'no_others' ? '' : ` EXCLUDE ${f.exclude.replace('_', ' ').toUpperCase()}`;
  return `${f.units.toUpperCase()} BETWEEN ${bound(f.start)} AND ${bound(f.end)}${exclude}`;
}
