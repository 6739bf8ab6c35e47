// Grouping sets: the grouping-id column an Aggregate with `groupingSets` appends, and how its value is computed.

/** Name of the int32 column an Aggregate with grouping sets appends to its output. */
export const GROUPING_ID_COLUMN = '__grouping_id';

/**
 * PostgreSQL's GROUPING() over `args` (indexes into GROUP BY) for the rows of grouping set `set`: bit
 * (args.length - 1 - j) is set when args[j] is not in the set. The grouping-id column holds it for every
 * group column (args = 0…width-1).
 */
export function groupingValue(set: readonly number[], args: readonly number[]): number {
  let v = 0;
  args.forEach((a, j) => {
    if (!set.includes(a)) v |= 1 << (args.length - 1 - j);
  });
  return v;
}
