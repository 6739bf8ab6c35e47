// `BatchRows`: how many rows of one batch fall in each group, counted once for all of the batch's aggregates.

/**
 * Past this many groups a per-batch count costs more than it saves (a count array per batch, and rows spread over
 * many groups do not wait on each other's stores); accumulators then count as they add.
 */
export const MAX_COUNTED_GROUPS = 4_096;

/**
 * The group ids of a batch's rows and, on first use, the number of rows in each group. With few groups, adding each
 * row to its group's sum *and* count makes every row wait on the previous row's stores to the same slots (q1's
 * 4 groups: ~10 ns a row against ~3.5 ns for the sum alone); accumulators fed rows without NULLs add only their
 * values and take the counts from here, counted in one pass shared by all of them (COUNT(*) included).
 */
export class BatchRows {
  readonly groups: Int32Array;
  readonly n: number;
  readonly ngroups: number;
  #counts: Float64Array | null = null;

  constructor(groups: Int32Array, n: number, ngroups: number) {
    this.groups = groups;
    this.n = n;
    this.ngroups = ngroups;
  }

  /** Rows per group (index < `ngroups`), or null when there are more than MAX_COUNTED_GROUPS groups. */
  counts(): Float64Array | null {
    if (this.ngroups > MAX_COUNTED_GROUPS) return null;
    if (this.#counts === null) {
      const counts = new Float64Array(this.ngroups);
      const groups = this.groups;
      if (this.ngroups === 1) counts[0] = this.n;
      else for (let i = 0; i < this.n; i++) counts[groups[i]!]!++;
      this.#counts = counts;
    }
    return this.#counts;
  }

  /** Adds the batch's rows per group to `into` (a per-group count of at least `ngroups` slots); false without counts. */
  addCountsTo(into: Float64Array): boolean {
    const counts = this.counts();
    if (counts === null) return false;
    for (let g = 0; g < this.ngroups; g++) into[g]! += counts[g]!;
    return true;
  }
}
