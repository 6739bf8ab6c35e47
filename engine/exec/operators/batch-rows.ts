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
  /** Groups before this batch, when its new groups got ids before..ngroups-1 in row order (a key table's). */
  readonly before: number | undefined;
  #counts: Float64Array | null = null;
  #first: { rows: Int32Array; ids: Int32Array } | null | undefined;

  constructor(groups: Int32Array, n: number, ngroups: number, before?: number) {
    this.groups = groups;
    this.n = n;
    this.ngroups = ngroups;
    this.before = before;
  }

  /**
   * The row where each group new in this batch first appears, with its id (ids `before`…, in row order); null
   * without `before`, or if a new id is missing from the batch's rows. Computed once for all of the batch's
   * accumulators (any_value's: Q10 has six).
   */
  firstRows(): { rows: Int32Array; ids: Int32Array } | null {
    if (this.before === undefined) return null;
    if (this.#first === undefined) {
      const k = this.ngroups - this.before;
      const rows = new Int32Array(k);
      const ids = new Int32Array(k);
      const groups = this.groups;
      // New ids are handed out in row order: the first row of id `next` is the first row holding it.
      let next = this.before;
      for (let i = 0; i < this.n && next < this.ngroups; i++) {
        if (groups[i] === next) {
          rows[next - this.before] = i;
          ids[next - this.before] = next;
          next++;
        }
      }
      this.#first = next === this.ngroups ? { rows, ids } : null;
    }
    return this.#first;
  }

  /** Rows per group (index < `ngroups`), or null when there are more than MAX_COUNTED_GROUPS groups. */
  counts(): Float64Array | null {
    if (this.ngroups > MAX_COUNTED_GROUPS) return null;
    if (this.#counts === null) {
      const counts = new Float64Array(this.ngroups);
      if (this.ngroups === 1) counts[0] = this.n;
      else countGroups(this.groups, this.n, counts);
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

/**
 * Adds one to `counts[groups[i]]` for i < n. A function of its own: as a loop inside `counts()`, V8 entered it
 * through on-stack replacement and left the compiled loop at the field store after it, once per batch, hundreds of
 * times a query ("insufficient type feedback"; ~25 ms of q01's first run on a thread).
 */
function countGroups(groups: Int32Array, n: number, counts: Float64Array): void {
  for (let i = 0; i < n; i++) counts[groups[i]!]!++;
}
