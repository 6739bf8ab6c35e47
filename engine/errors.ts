// The engine's error classes; `kind` tells the server which HTTP status an error maps to.

export type EngineErrorKind = 'parse' | 'plan' | 'exec' | 'not_supported' | 'forbidden' | 'cancelled' | 'internal';

export class EngineError extends Error {
  readonly kind: EngineErrorKind;
  constructor(kind: EngineErrorKind, message: string) {
    super(message);
    this.kind = kind;
    this.name = new.target.name;
  }
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
