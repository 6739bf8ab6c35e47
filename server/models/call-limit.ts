// `CallLimit`: at most `max` model calls at once; the rest wait in arrival order (a provider rate-limits per key).

interface Waiter {
  readonly resolve: (release: () => void) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal;
  readonly onAbort: () => void;
}

export class CallLimit {
  #active = 0;
  readonly #waiting: Waiter[] = [];

  constructor(readonly max: number) {}

  /** Calls running now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * A slot: resolves with its release (call it exactly once) as soon as fewer than `max` run. Rejects with the
   * signal's reason when the signal aborts first (the waiter leaves the queue).
   */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.max) {
      this.#active++;
      return Promise.resolve(this.#release());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.#waiting.indexOf(waiter);
          if (i >= 0) this.#waiting.splice(i, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** A release that hands the slot to the first waiter, once. */
  #release(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#waiting.shift();
      if (next === undefined) {
        this.#active--;
        return;
      }
      next.signal.removeEventListener('abort', next.onAbort);
      next.resolve(this.#release());
    };
  }
}
