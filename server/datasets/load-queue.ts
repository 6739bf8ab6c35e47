// `LoadQueue`: dataset loads run one at a time across all datasets, so at most one new version is being built.

/**
 * A FIFO of load tasks, one running at a time: each refresh builds a whole new copy beside the one serving, so
 * two at once could double the peak memory. A task whose load was cancelled while it waited should return at
 * once (check the signal first); the next starts when the previous task's promise settles.
 */
export class LoadQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it has settled; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => {});
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => {});
  }
}
