// `Admission`: how many queries may be in the pool at once, and a bounded queue of those waiting to enter.

/** A query waiting for admission; `start` runs once it is let in, unless it was cancelled. */
interface Waiting {
  readonly start: () => void;
  cancelled: boolean;
}

/**
 * At most `maxConcurrent` queries are admitted (queued in the pool or running there); up to `maxQueued` more
 * wait here, first in, first out; beyond that `enter` refuses (the front end answers "overloaded", e.g. 503
 * with Retry-After). Every admitted query must `leave` exactly once.
 */
export class Admission {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  #active = 0;
  #waiting: Waiting[] = [];
  #head = 0;

  constructor(maxConcurrent: number, maxQueued: number) {
    this.#maxConcurrent = maxConcurrent;
    this.#maxQueued = maxQueued;
  }

  /** Queries admitted and not yet left. */
  get active(): number {
    return this.#active;
  }

  /** Queries waiting for admission (cancelled ones not yet dropped included). */
  get queued(): number {
    return this.#waiting.length - this.#head;
  }

  /**
   * Runs `start` now if there is room, or once there is. Returns a function that withdraws a waiting query,
   * or null when the queue is full (`start` will never run).
   */
  enter(start: () => void): (() => void) | null {
    if (this.#active < this.#maxConcurrent) {
      this.#active++;
      start();
      return () => {};
    }
    if (this.queued >= this.#maxQueued) return null;
    const w: Waiting = { start, cancelled: false };
    this.#waiting.push(w);
    return () => {
      w.cancelled = true;
    };
  }

  /** An admitted query has ended: the oldest live waiting one enters. */
  leave(): void {
    this.#active--;
    while (this.#head < this.#waiting.length && this.#active < this.#maxConcurrent) {
      const w = this.#waiting[this.#head]!;
      this.#waiting[this.#head++] = undefined as unknown as Waiting;
      if (w.cancelled) continue;
      this.#active++;
      w.start();
    }
    if (this.#head === this.#waiting.length || (this.#head > 1024 && this.#head * 2 > this.#waiting.length)) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
  }
}
