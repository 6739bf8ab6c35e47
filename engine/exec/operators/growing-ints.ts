// `GrowingInts`: an Int32Array list that doubles as it fills (per-code and per-group bookkeeping).

export class GrowingInts {
  values = new Int32Array(64);
  size = 0;

  push(x: number): void {
    if (this.size === this.values.length) {
      const next = new Int32Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.size++] = x;
  }
}
