// The engine's error classes; `kind` tells the server which HTTP status an error maps to.

export type EngineErrorKind = 'parse' | 'plan' | 'exec' | 'not_supported' | 'forbidden' | 'cancelled' | 'internal';

/** Longer messages are cut in the middle: an error quoting a 100 MB literal or name must not echo it back. */
export const MAX_ERROR_MESSAGE = 8192;

export class EngineError extends Error {
  readonly kind: EngineErrorKind;
  constructor(kind: EngineErrorKind, message: string) {
    super(boundedMessage(message));
    this.kind = kind;
    this.name = new.target.name;
  }
}

function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE) return message;
  const keep = MAX_ERROR_MESSAGE / 2;
  return `${message.slice(0, keep)}… (${message.length - 2 * keep} characters cut) …${message.slice(-keep)}`;
}

/** The SQL text does not parse. The message carries line and column. */
export class ParseError extends EngineError {
  constructor(message: string) {
    super('parse', message);
  }
}

/** The query parses but cannot be planned: unknown table or column, type mismatch, bad parameter. */
export class PlanError extends EngineError {
  constructor(message: string) {
    super('plan', message);
  }
}

/** A runtime error caused by the data or the query: division by zero, overflow, invalid cast. */
export class ExecError extends EngineError {
  constructor(message: string) {
    super('exec', message);
  }
}

/** Valid SQL that floe does not implement yet. */
export class NotSupportedError extends EngineError {
  constructor(message: string) {
    super('not_supported', message);
  }
}

/** The statement writes data but the caller may only read (`ExecuteOptions.allowWrites` false). */
export class ForbiddenError extends EngineError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** The query was cancelled (client disconnect or shutdown). */
export class CancelledError extends EngineError {
  constructor(message = 'query cancelled') {
    super('cancelled', message);
  }
}

/** A bug in floe: an invariant did not hold. */
export class InternalError extends EngineError {
  constructor(message: string) {
    super('internal', message);
  }
}

/** True for errors the user caused (answered with 400), false for faults of floe (500). */
export function isUserError(e: unknown): boolean {
  return e instanceof EngineError && e.kind !== 'internal';
}

/**
 * JavaScript's limits met while planning or running a statement, in PostgreSQL's words, as user errors: a stack
 * overflow (3,000 nested `NOT`s) and a string or array past V8's maximum length (concatenating values near
 * MAX_TEXT_LENGTH). Any other error is returned unchanged.
 */
export function limitError(e: unknown): unknown {
  if (!(e instanceof RangeError)) return e;
  if (/call stack/i.test(e.message)) return new PlanError('stack depth limit exceeded: the statement nests too deeply');
  // A negative length is floe's own arithmetic gone wrong, never the query's size: it stays an internal error.
  if (/^Invalid (string|array|typed array) length(?!: -)/i.test(e.message))
    return new ExecError(`requested length too large: a value passed JavaScript's limit (${e.message})`);
  return e;
}

/**
 * The longest text value floe builds, in UTF-16 code units (characters for ASCII): 256 Mi. PostgreSQL's limit is
 * 1 GB per value; a JavaScript string holds at most 2^29 - 24 code units, and functions that build a value from a
 * size the query gives (lpad, rpad, repeat) or from many rows (string_agg) must fail before the heap does.
 */
export const MAX_TEXT_LENGTH = 2 ** 28;

/** Throws PostgreSQL's "requested length too large" when a text value of `length` code units would pass the limit. */
export function checkTextLength(length: number, what: string): void {
  if (length > MAX_TEXT_LENGTH) {
    throw new ExecError(
      `requested length too large: ${what} would be ${length} characters long (floe's limit for one value is ${MAX_TEXT_LENGTH})`,
    );
  }
}
