// `readFailure`: what a CSV or JSON file's read failure says to the user (an ExecError naming the file).
import { EngineError, ExecError } from '../../errors.js';
import { ObjectNotFoundError, PreconditionFailedError } from '../object-store/object-store.js';

/** An engine error passes as is; a store's failure becomes an ExecError naming `location`. */
export function readFailure(location: string, e: unknown): Error {
  if (e instanceof EngineError) return e;
  if (e instanceof ObjectNotFoundError) return new ExecError(`${location}: no such file`);
  if (e instanceof PreconditionFailedError) return new ExecError(`${location} changed while it was being read`);
  return new ExecError(`${location}: ${(e as Error).message}`);
}
