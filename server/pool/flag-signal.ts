// `flagSignal`: an AbortSignal that also reads a cancel flag in shared memory, so a busy worker sees it at once.

const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get as (
  this: AbortSignal,
) => boolean;

/**
 * Messages reach a worker as event-loop tasks, but an in-memory query runs from start to end without letting
 * the loop turn, so a `cancel` message would only be seen once the work was done. The returned signal's
 * `aborted` also loads `flag[0]` (set to 1 by the main thread) each time the engine checks it between
 * batches, and aborts `controller` when it is set; `abort` listeners then run as usual.
 */
export function flagSignal(flag: Int32Array, controller: AbortController): AbortSignal {
  const { signal } = controller;
  // The engine reads `signal.aborted`; an own getter shadows the prototype's.
  Object.defineProperty(signal, 'aborted', {
    get() {
      if (!abortedOf.call(signal) && Atomics.load(flag, 0) !== 0) controller.abort();
      return abortedOf.call(signal);
    },
  });
  return signal;
}
