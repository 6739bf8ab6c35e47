// `PreparedStatements`: Flight SQL prepared statements by handle (SQL, bound parameters, owner), bounded.
import { randomBytes } from 'node:crypto';
import type { ParamValues } from '../../engine/index.js';

/** One prepared statement: its SQL and the parameters its last DoPut bound. */
export interface PreparedStatement {
  readonly sql: string;
  /** The principal that created it: another caller's handle is treated as unknown. */
  readonly owner: string;
  params?: ParamValues;
}

/** Statements kept at most; creating one more forgets the oldest (clients close theirs; some never do). */
export const MAX_PREPARED_STATEMENTS = 10_000;

export class PreparedStatements {
  readonly #byHandle = new Map<string, PreparedStatement>();

  /** Stores `sql` for `owner` and returns its new handle (16 random bytes: not guessable). */
  create(sql: string, owner: string): Uint8Array {
    const handle = randomBytes(16);
    this.#byHandle.set(handle.toString('hex'), { sql, owner });
    if (this.#byHandle.size > MAX_PREPARED_STATEMENTS) {
      const oldest = this.#byHandle.keys().next().value as string;
      this.#byHandle.delete(oldest);
    }
    return handle;
  }

  /** The statement of `handle` if `owner` created it; undefined otherwise (closed, forgotten, someone else's). */
  get(handle: Uint8Array, owner: string): PreparedStatement | undefined {
    const statement = this.#byHandle.get(Buffer.from(handle).toString('hex'));
    return statement?.owner === owner ? statement : undefined;
  }

  /** Forgets `handle` (closing an unknown handle is not an error: the statement is gone either way). */
  close(handle: Uint8Array, owner: string): void {
    if (this.get(handle, owner) !== undefined) this.#byHandle.delete(Buffer.from(handle).toString('hex'));
  }

  get size(): number {
    return this.#byHandle.size;
  }
}
