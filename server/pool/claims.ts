// Claim slots: which side runs a batched query, the worker it was sent to or the main thread taking it back.

/**
 * Slots in the shared claims array (an Int32Array on a SharedArrayBuffer, made by the pool): a query handed to
 * a worker carries a ticket (a positive int32, new at every hand-out), and slot `ticket & CLAIM_MASK` holds
 * `ticket` once the worker has started it or `-ticket` once the main thread has taken it back. Both sides swap
 * the slot with compare-and-exchange, so exactly one of them wins.
 */
export const CLAIM_SLOTS = 65_536;
export const CLAIM_MASK = CLAIM_SLOTS - 1;

/** The worker's side: true if it may run the query (the main thread has not taken it back). */
export function claimTicket(claims: Int32Array, ticket: number): boolean {
  const slot = ticket & CLAIM_MASK;
  const seen = Atomics.load(claims, slot);
  return seen !== -ticket && Atomics.compareExchange(claims, slot, seen, ticket) === seen;
}

/** The main thread's side: true if it has taken the query back (the worker has not started it). */
export function stealTicket(claims: Int32Array, ticket: number): boolean {
  const slot = ticket & CLAIM_MASK;
  const seen = Atomics.load(claims, slot);
  return seen !== ticket && Atomics.compareExchange(claims, slot, seen, -ticket) === seen;
}
