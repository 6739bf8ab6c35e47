// `GroupNumbers`: per-group numeric aggregate state that grows as groups appear.

/** Per-group numbers in a Float64Array that doubles as groups appear (new slots hold `fill`). */
export class GroupNumbers {
  values: Float64Array;
  constructor(readonly fill = 0) {
    this.values = new Float64Array(64).fill(fill);
  }
  /** Room for `ngroups` groups at once (an aggregate that expects that many), sized exactly: no doublings to it. */
  reserve(ngroups: number): void {
    if (this.values.length >= ngroups) return;
    const next = new Float64Array(ngroups).fill(this.fill);
    next.set(this.values);
    this.values = next;
  }
  ensure(ngroups: number): Float64Array {
    if (this.values.length < ngroups) {
      let size = this.values.length;
      while (size < ngroups) size *= 2;
      const next = new Float64Array(size).fill(this.fill);
      next.set(this.values);
      this.values = next;
    }
    return this.values;
  }
}
