// `bindWindowFrame` checks a frame clause the way PostgreSQL does and binds its offsets to literals.
import { NotSupportedError, PlanError } from '../../errors.js';
import type { LiteralExpr } from '../../plan/expr/index.js';
import type { SortKey } from '../../plan/logical/index.js';
import {
  DEFAULT_FRAME,
  type FrameBound,
  type FrameBoundKind,
  type FrameExclusion,
  type FrameUnits,
  type WindowFrame,
} from '../../plan/logical/window.js';
import { INT64, INTERVAL, isInteger, isNumeric, typeName } from '../../plan/types.js';
import type { Ast } from '../parse.js';
import type { WindowSpecAst } from '../rewrite/window-rewrite.js';
import { bindExpr, type ExprContext } from './bind-expr.js';
import { bindNumber, parseInterval } from './bind-literal.js';
import { Scope } from './scope.js';

type FrameAst = NonNullable<WindowSpecAst['frame']>;

/** The frame of a window with `orderBy`; no frame clause gives SQL's default. */
export function bindWindowFrame(frame: FrameAst | null, orderBy: readonly SortKey[], ctx: ExprContext): WindowFrame {
  if (frame === null) return DEFAULT_FRAME;
  const units = frame.units as FrameUnits;
  const start = frame.start.kind as FrameBoundKind;
  const end = frame.end.kind as FrameBoundKind;
  if (start === 'unbounded_following') throw new PlanError('frame start cannot be UNBOUNDED FOLLOWING');
  if (end === 'unbounded_preceding') throw new PlanError('frame end cannot be UNBOUNDED PRECEDING');
  if (start === 'current_row' && end === 'preceding')
    throw new PlanError('frame starting from current row cannot have preceding rows');
  if (start === 'following' && (end === 'preceding' || end === 'current_row'))
    throw new PlanError('frame starting from following row cannot have preceding rows');
  if (units === 'groups' && orderBy.length === 0) throw new PlanError('GROUPS mode requires an ORDER BY clause');
  const bound = (kind: FrameBoundKind, offset: Ast | null, which: string): FrameBound => ({
    kind,
    offset: offset === null ? null : bindOffset(offset, units, orderBy, which, ctx),
  });
  return {
    units,
    start: bound(start, frame.start.offset, 'starting'),
    end: bound(end, frame.end.offset, 'ending'),
    exclude: frame.exclude as FrameExclusion,
  };
}

/** A frame offset: a constant, non-negative; an integer for ROWS/GROUPS, the ORDER BY column's step for RANGE. */
function bindOffset(
  ast: Ast,
  units: FrameUnits,
  orderBy: readonly SortKey[],
  which: string,
  ctx: ExprContext,
): LiteralExpr {
  const mode = units.toUpperCase();
  if (mentionsColumn(ast)) throw new PlanError(`argument of ${mode} must not contain variables`);
  const scope = new Scope({ fields: [] });
  const bound = bindExpr(ast, {
    scope,
    params: ctx.params,
    aggregates: `argument of ${mode}`,
    windows: `window functions are not allowed in argument of ${mode}`,
  });
  if (bound.kind !== 'literal') throw new NotSupportedError(`${mode} frame offsets must be constants`);
  const e = bound.untyped ? typedOffset(String(bound.value), units, orderBy) : bound;
  if (e.value === null) throw new PlanError(`frame ${which} offset must not be null`);
  if (units === 'range') return rangeOffset(e, orderBy, which);
  if (!isInteger(e.type)) throw new PlanError(`argument of ${mode} must be type bigint, not type ${typeName(e.type)}`);
  if (Number(e.value) < 0) throw new PlanError(`frame ${which} offset must not be negative`);
  return { kind: 'literal', value: e.value, type: INT64 };
}

/** A quoted offset (a text parameter, `'7 days'`) read as the type the frame needs. */
function typedOffset(text: string, units: FrameUnits, orderBy: readonly SortKey[]): LiteralExpr {
  const t = orderBy[0]?.expr.type;
  if (units === 'range' && (t?.id === 'date' || t?.id === 'timestamp'))
    return { kind: 'literal', value: parseInterval({ expr: { value: text } }), type: INTERVAL };
  if (!/^\s*[+-]?\d+(\.\d*)?\s*$/.test(text)) throw new PlanError(`invalid input syntax for a frame offset: "${text}"`);
  return bindNumber(text.trim().replace(/^\+/, ''));
}

function rangeOffset(e: LiteralExpr, orderBy: readonly SortKey[], which: string): LiteralExpr {
  if (orderBy.length !== 1)
    throw new PlanError('RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column');
  const t = orderBy[0]!.expr.type;
  const temporal = t.id === 'date' || t.id === 'timestamp';
  const ok = temporal ? e.type.id === 'interval' : isNumeric(t) && isNumeric(e.type);
  if (!ok) {
    throw new PlanError(
      `RANGE with offset PRECEDING/FOLLOWING is not supported for column type ${typeName(t)} and offset type ${typeName(e.type)}`,
    );
  }
  const v = e.value as number | bigint | { months: number; days: number; micros: number };
  const negative = typeof v === 'object' ? v.months < 0 || v.days < 0 || v.micros < 0 : v < 0;
  if (negative) throw new PlanError(`invalid preceding or following size in window function (frame ${which} offset)`);
  return e;
}

function mentionsColumn(ast: Ast): boolean {
  if (ast === null || typeof ast !== 'object') return false;
  if (ast.type === 'column_ref') return true;
  return Object.values(ast).some(mentionsColumn);
}
