// `FlagSignal`: the abort signal a worker hands the engine for one query, cancelled through shared memory.

/**
 * Messages reach a worker as event-loop tasks, but an in-memory query runs from start to end without letting
 * the loop turn, so a `cancel` message would only be seen once the work was done. `aborted` therefore also asks
 * `cancelled` (a load from shared memory) each time the engine checks it between batches.
 *
 * A real AbortSignal cost ~15 µs per query to make (a fifth of a point lookup's time in the worker), and most
 * queries never listen for the abort: the AbortController behind this one is made only when a listener is added
 * or the query is aborted. It offers what the engine uses of an AbortSignal (`aborted`, `reason`,
 * `throwIfAborted`, `addEventListener` / `removeEventListener` for 'abort'); it is not one for Node APIs.
 */
export class FlagSignal {
  readonly #cancelled: () => boolean;
  #controller: AbortController | null = null;

  constructor(cancelled: () => boolean) {
    this.#cancelled = cancelled;
  }

  get aborted(): boolean {
    if (this.#controller?.signal.aborted === true) return true;
    if (!this.#cancelled()) return false;
    this.abort();
    return true;
  }

  get reason(): unknown {
    return this.#controller?.signal.reason;
  }

  throwIfAborted(): void {
    if (this.aborted) this.#signal().throwIfAborted();
  }

  /** Aborts the query (its listeners run once); later calls do nothing. */
  abort(): void {
    const signal = this.#signal();
    if (!signal.aborted) this.#controller!.abort();
  }

  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void {
    this.#signal().addEventListener(type, listener, options);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    this.#controller?.signal.removeEventListener(type, listener);
  }

  /** This signal as the engine's API types it (only the members above are ever used). */
  get asAbortSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  #signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }
}
