// The function registry: every scalar function by SQL name, checked for duplicates at load.
import type { AggregateFn } from '../plan/logical/index.js';
import type { ScalarFunction } from './function.js';
import { age } from './scalar/age.js';
import { COMPARISON_FUNCTIONS } from './scalar/comparison.js';
import { CONDITIONAL_FUNCTIONS } from './scalar/conditional.js';
import { DATE_FUNCTIONS } from './scalar/date.js';
import { extract } from './scalar/extract.js';
import { MATH_FUNCTIONS } from './scalar/math.js';
import { REGEXP_FUNCTIONS } from './scalar/regexp.js';
import { ROUNDING_FUNCTIONS } from './scalar/rounding.js';
import { STRING_FUNCTIONS } from './scalar/string.js';
import { STRING_PART_FUNCTIONS } from './scalar/string-parts.js';
import { TO_CHAR_FUNCTIONS } from './scalar/to-char.js';

const FUNCTIONS = new Map<string, ScalarFunction>();
for (const f of [
  ...STRING_FUNCTIONS,
  ...STRING_PART_FUNCTIONS,
  ...DATE_FUNCTIONS,
  ...MATH_FUNCTIONS,
  ...ROUNDING_FUNCTIONS,
  ...CONDITIONAL_FUNCTIONS,
  ...COMPARISON_FUNCTIONS,
  ...REGEXP_FUNCTIONS,
  ...TO_CHAR_FUNCTIONS,
  extract,
  age,
]) {
  if (FUNCTIONS.has(f.name)) throw new Error(`duplicate function ${f.name}`);
  FUNCTIONS.set(f.name, f);
}

/** The scalar function named `name` (case-insensitive), if any. */
export function lookupFunction(name: string): ScalarFunction | undefined {
  return FUNCTIONS.get(name.toLowerCase());
}

export function functionNames(): string[] {
  return [...FUNCTIONS.keys()].sort();
}

/** Aggregate functions by SQL name, mapped to the plan's canonical name (`stddev` is `stddev_samp`). */
const AGGREGATES: Readonly<Record<string, AggregateFn>> = {
  count: 'count',
  sum: 'sum',
  avg: 'avg',
  min: 'min',
  max: 'max',
  stddev: 'stddev_samp',
  stddev_samp: 'stddev_samp',
  stddev_pop: 'stddev_pop',
  variance: 'var_samp',
  var_samp: 'var_samp',
  var_pop: 'var_pop',
  bool_and: 'bool_and',
  every: 'bool_and',
  bool_or: 'bool_or',
  string_agg: 'string_agg',
  any_value: 'any_value',
};

export const AGGREGATE_NAMES: ReadonlySet<string> = new Set(Object.keys(AGGREGATES));

/** The canonical aggregate for SQL name `name` (case-insensitive), if it is one. */
export function lookupAggregate(name: string): AggregateFn | undefined {
  return AGGREGATES[name.toLowerCase()];
}
