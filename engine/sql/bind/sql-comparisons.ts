// `SQL_COMPARISONS`: the parser's spellings of the comparison operators, mapped to the plan's `ComparisonOp`.
import type { ComparisonOp } from '../../plan/expr/index.js';

export const SQL_COMPARISONS: Readonly<Record<string, ComparisonOp>> = {
  '=': '=',
  '<>': '<>',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
