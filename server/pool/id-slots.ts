// `IdSlots`: values by positive int32 id, in an open-addressing table that clears a slot on delete.
//
// Why not a Map: on the HTTP thread, a Map or Set that gains and loses an entry per request (the pool's
// `outstanding` queries, the server's in-flight replies, the running batches) made V8 keep each request's state
// through the next scavenges and promote it: under `wrk -c64` on the point lookup, ~0.78 MiB promoted per
// scavenge (every request since the last one) and pauses of 3-4 ms at the median, then a 6-8 ms full collection
// about every second. With these three as an `IdSlots`, a counter and an array, ~0.11 MiB and 1.2-1.3 ms. (Each
// alone changed nothing: any one of them kept the requests alive. V8 rebuilds a hash table's backing store as
// entries come and go, and an outdated store keeps a link to its successor; we did not pin the mechanism down.)
// Here the arrays change only when the table grows, and a delete clears its slot (backward shift, no tombstones).

const INITIAL_SLOTS = 64;

export class IdSlots<T> {
  #ids = new Int32Array(INITIAL_SLOTS);
  #values: (T | undefined)[] = new Array<T | undefined>(INITIAL_SLOTS).fill(undefined);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(id: number): T | undefined {
    const at = this.#find(id);
    return at < 0 ? undefined : this.#values[at];
  }

  has(id: number): boolean {
    return this.#find(id) >= 0;
  }

  /** Adds or replaces the value of `id` (a positive int32). */
  set(id: number, value: T): void {
    if (!(id > 0 && id === (id | 0))) throw new RangeError(`IdSlots: id ${id} is not a positive int32`);
    const at = this.#find(id);
    if (at >= 0) {
      this.#values[at] = value;
      return;
    }
    if ((this.#size + 1) * 2 > this.#ids.length) this.#grow();
    const mask = this.#ids.length - 1;
    let s = id & mask;
    while (this.#ids[s] !== 0) s = (s + 1) & mask;
    this.#ids[s] = id;
    this.#values[s] = value;
    this.#size++;
  }

  /** Removes `id`; false when it was not there. */
  delete(id: number): boolean {
    let hole = this.#find(id);
    if (hole < 0) return false;
    const ids = this.#ids;
    const values = this.#values;
    const mask = ids.length - 1;
    // Backward shift: later entries of the probe run move into the hole unless their home slot forbids it.
    for (let s = (hole + 1) & mask; ids[s] !== 0; s = (s + 1) & mask) {
      const home = ids[s]! & mask;
      // The entry at s stays when its home lies cyclically in (hole, s].
      const stays = hole <= s ? home > hole && home <= s : home > hole || home <= s;
      if (stays) continue;
      ids[hole] = ids[s]!;
      values[hole] = values[s];
      hole = s;
    }
    ids[hole] = 0;
    values[hole] = undefined;
    this.#size--;
    return true;
  }

  #find(id: number): number {
    const ids = this.#ids;
    const mask = ids.length - 1;
    for (let s = id & mask; ids[s] !== 0; s = (s + 1) & mask) if (ids[s] === id) return s;
    return -1;
  }

  #grow(): void {
    const ids = this.#ids;
    const values = this.#values;
    this.#ids = new Int32Array(ids.length * 2);
    this.#values = new Array<T | undefined>(ids.length * 2).fill(undefined);
    this.#size = 0;
    for (let s = 0; s < ids.length; s++) if (ids[s] !== 0) this.set(ids[s]!, values[s] as T);
    values.fill(undefined);
  }
}
