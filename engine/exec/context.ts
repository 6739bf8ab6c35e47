// `ExecContext`: what every operator may consult while running a query.
import type { Catalog } from '../catalog.js';
import { CancelledError } from '../errors.js';

export interface ExecContext {
  readonly catalog: Catalog;
  readonly signal: AbortSignal;
}

/** Throws `CancelledError` once the query's signal has fired; operators call it between batches. */
export function checkCancelled(ctx: ExecContext): void {
  if (ctx.signal.aborted) throw new CancelledError();
}
