// `ScratchInts`: one reusable Int32Array per use site for per-batch results that are read before the next batch
// (a filter's selection, group ids, a probe's key ids): a fresh 256 KiB array per 64Ki-row batch was 24 MB a query
// in q18's aggregate, and allocations of that size cost a zeroed mapping each and push the collector toward a full
// collection.
export class ScratchInts {
  #buffer = new Int32Array(0);

  /** A view of `n` entries (contents left from earlier use), valid until the next `take`. */
  take(n: number): Int32Array {
    if (this.#buffer.length < n) this.#buffer = new Int32Array(Math.max(n, 2 * this.#buffer.length));
    return this.#buffer.subarray(0, n);
  }

  /** Whether `view` lies in this buffer (a result to copy before keeping it). */
  owns(view: Int32Array): boolean {
    return view.buffer === this.#buffer.buffer;
  }
}
