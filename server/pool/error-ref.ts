// `makeErrorRef`: short ids that tie a 500 response to the stderr line holding the stack.
import { randomBytes } from 'node:crypto';

/** 8 hex digits, random; logged with the stack and sent to the client instead of it. */
export function makeErrorRef(): string {
  return randomBytes(4).toString('hex');
}

/** Logs `error` (its stack when it has one) to stderr under a fresh reference id and returns the id. */
export function logInternalError(context: string, error: unknown): string {
  const ref = makeErrorRef();
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`floe: ${context} [ref ${ref}]: ${detail}\n`);
  return ref;
}
