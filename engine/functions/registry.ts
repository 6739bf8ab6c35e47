// The function registry: every scalar function by SQL name, checked for duplicates at load.
import type { ScalarFunction } from './function.js';
import { CONDITIONAL_FUNCTIONS } from './scalar/conditional.js';
import { DATE_FUNCTIONS } from './scalar/date.js';
import { MATH_FUNCTIONS } from './scalar/math.js';
import { STRING_FUNCTIONS } from './scalar/string.js';

const FUNCTIONS = new Map<string, ScalarFunction>();
for (const f of [...STRING_FUNCTIONS, ...DATE_FUNCTIONS, ...MATH_FUNCTIONS, ...CONDITIONAL_FUNCTIONS]) {
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

export const AGGREGATE_NAMES: ReadonlySet<string> = new Set(['count', 'sum', 'avg', 'min', 'max']);
