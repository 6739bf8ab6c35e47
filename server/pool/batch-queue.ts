// `BatchQueue`: the main thread's queue of queries in two lanes (light, heavy), taken off in batches of cheap ones.

/** A query that has taken less than this (run and serialized, in ms) last time may share a task with others. */
export const CHEAP_MS = 1;
/**
 * A query that took less than this last time is light: it waits in the light lane, which a worker kept free of
 * heavy queries serves (see `createQueryPool`); one whose cost is unknown or higher is heavy.
 */
export const LIGHT_MS = 20;
/**
 * A batch running longer than this (ms) while a worker is free has its queries not yet started taken back (one
 * of its queries turned out slow: the others should not wait for it).
 */
export const BATCH_BUDGET_MS = 2;
/** Most queries in one task. */
export const MAX_BATCH = 32;
/** Statements longer than this (UTF-16 units) get no cost key: they always run as a task of their own. */
const MAX_KEYED_CHARS = 1024;
/**
 * Cost keys remembered; past this the map starts again (costs are relearned after one run each). With the key
 * length cap, the map holds at most ~8 MiB of key text however many distinct statements arrive.
 */
const MAX_COSTS = 4096;

/** What the queue needs of a queued query. */
export interface QueuedQuery {
  /** See `costKey`; null: never batched. */
  readonly key: string | null;
  /** Set when the client has gone: the query is dropped when it reaches the head. */
  readonly cancelled: boolean;
  /** Arrival order, set by `push` (the oldest of the two lanes' heads goes first). */
  seq: number;
  /** Set by `push`: which lane it waits in. */
  light: boolean;
}

/**
 * The statement with its numeric and quoted literals replaced by `?`, so a point lookup costs the same whatever
 * key it asks for; null for a long statement (the replacement would cost more than batching saves).
 */
export function costKey(sql: string): string | null {
  if (sql.length > MAX_KEYED_CHARS) return null;
  return sql.replace(/'(?:[^']|'')*'|\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '?');
}

/**
 * Queries wait here until a worker is free, each in its lane: light (cost last time under `LIGHT_MS`) or heavy.
 * `take` hands out the oldest query (of both lanes, or of the light lane only), plus the queries right behind it
 * in its lane while each of them (and the first) cost under `CHEAP_MS` on their last run: a task (and its two
 * messages between threads, ~0.1 ms of the two threads' time) then carries up to `max` point lookups instead of
 * one. A query whose cost is unknown or higher travels alone. Queries handed back (`putBack`, those the pool took
 * back from a worker before it started them) go to the front of their lanes again, in order.
 */
export class BatchQueue<Q extends QueuedQuery> {
  readonly #light = new Lane<Q>();
  readonly #heavy = new Lane<Q>();
  readonly #costs = new Map<string, number>();
  #seq = 0;

  /** Queries waiting, including cancelled ones not yet dropped. */
  get size(): number {
    return this.#light.size + this.#heavy.size;
  }

  /** Queries waiting in the light lane (cancelled ones included). */
  get lightSize(): number {
    return this.#light.size;
  }

  push(query: Q): void {
    query.seq = this.#seq++;
    query.light = this.#costOf(query) < LIGHT_MS;
    (query.light ? this.#light : this.#heavy).push(query);
  }

  /**
   * The oldest live query and the cheap ones behind it in its lane, at most `max` in all; with `lightOnly`, from
   * the light lane only. Empty when none is waiting.
   */
  take(max: number, lightOnly = false): Q[] {
    const light = this.#light.peek();
    const heavy = lightOnly ? null : this.#heavy.peek();
    const lane = heavy !== null && (light === null || heavy.seq < light.seq) ? this.#heavy : this.#light;
    return lane.take(max, (q) => this.#isCheap(q));
  }

  /** Returns queries to the front of their lanes, keeping their order. */
  putBack(queries: readonly Q[]): void {
    this.#light.putBack(queries.filter((q) => q.light));
    this.#heavy.putBack(queries.filter((q) => !q.light));
  }

  /** Every query waiting (cancelled ones included), light lane first. */
  *waiting(): IterableIterator<Q> {
    yield* this.#light.items();
    yield* this.#heavy.items();
  }

  /**
   * Remembers what a query with this cost key took (ms): the mean of this run and the cost so far, so one run
   * slowed by the machine (a collection, a busy core) does not move a point lookup into the heavy lane.
   */
  recordCost(key: string | null, ms: number): void {
    if (key === null) return;
    const before = this.#costs.get(key);
    if (before === undefined && this.#costs.size >= MAX_COSTS) this.#costs.clear();
    this.#costs.set(key, before === undefined ? ms : (before + ms) / 2);
  }

  #costOf(query: Q): number {
    return query.key === null ? Number.POSITIVE_INFINITY : (this.#costs.get(query.key) ?? Number.POSITIVE_INFINITY);
  }

  #isCheap(query: Q): boolean {
    return this.#costOf(query) < CHEAP_MS;
  }
}

/** One first-in, first-out lane. */
class Lane<Q extends QueuedQuery> {
  /**
   * Slots before `#head` are taken and cleared, so a taken query (its request, its reply's closures) is not kept
   * reachable from here until the array is compacted (up to ~2k of them under load).
   */
  #items: (Q | undefined)[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(query: Q): void {
    this.#items.push(query);
  }

  /** The oldest live query and the cheap ones right behind it (while it is cheap too), at most `max`. */
  take(max: number, isCheap: (q: Q) => boolean): Q[] {
    const batch: Q[] = [];
    let cheap = false;
    for (let next = this.peek(); next !== null && batch.length < max; next = this.peek()) {
      // The oldest goes whatever it costs; the ones behind it only while it and they are cheap.
      if (batch.length === 0) cheap = isCheap(next);
      else if (!cheap || !isCheap(next)) break;
      this.#items[this.#head++] = undefined;
      batch.push(next);
    }
    this.#compact();
    return batch;
  }

  putBack(queries: readonly Q[]): void {
    if (queries.length === 0) return;
    this.#items = [...queries, ...this.#items.slice(this.#head)];
    this.#head = 0;
  }

  *items(): IterableIterator<Q> {
    for (let i = this.#head; i < this.#items.length; i++) yield this.#items[i]!;
  }

  /** The head after dropping cancelled queries, left in place; null when the lane is empty. */
  peek(): Q | null {
    while (this.#head < this.#items.length) {
      const q = this.#items[this.#head]!;
      if (!q.cancelled) return q;
      this.#items[this.#head++] = undefined;
    }
    return null;
  }

  /** Drops the taken slots once they are most of the array. */
  #compact(): void {
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
