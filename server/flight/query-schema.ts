// `querySchema`: a statement's result schema without running it whole (FlightInfo, GetSchema, prepared statements).
import type { ParamValues } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import type { QueryService } from '../runtime/query-service.js';
import { EMPTY_SCHEMA_BYTES } from './arrow-results.js';
import { frameIpcMessage, type IpcMessage } from './ipc-messages.js';
import { collectArrowQuery, QueryFailure, runArrowQuery } from './run-arrow-query.js';

/** Kinds after which the statement itself is tried: it may be no SELECT (EXPLAIN, SHOW) or name what fails. */
const RETRY_KINDS = new Set(['parse', 'plan', 'not_supported']);

/**
 * The encapsulated IPC schema of `sql`'s answer. First `SELECT * FROM (<sql>) LIMIT 0` (planned, nothing read);
 * when that does not parse or plan, the statement itself, read-only, cancelled after its first message, so its
 * own error (bad SQL, unknown table) is what the caller sees. A write is refused by the read-only run before it
 * is planned: its schema is empty (nothing is known until it runs). Throws `QueryFailure`.
 */
export async function querySchema(
  service: QueryService,
  sql: string,
  params: ParamValues | undefined,
  principal: Principal,
): Promise<Uint8Array> {
  const reader: Principal = { id: principal.id, canWrite: false };
  const body = sql.trim().replace(/;+\s*$/, '');
  try {
    // The newline ends a trailing `-- comment` before the wrapper goes on.
    const wrapped = `SELECT * FROM (${body}\n) AS flight_schema LIMIT 0`;
    const messages = await collectArrowQuery(service, { sql: wrapped, params, principal: reader });
    return frameIpcMessage(messages[0] as IpcMessage);
  } catch (e) {
    if (!(e instanceof QueryFailure) || !RETRY_KINDS.has(e.error.kind)) throw e;
  }
  try {
    return frameIpcMessage(await firstMessage(service, sql, params, reader));
  } catch (e) {
    if (e instanceof QueryFailure && e.error.kind === 'forbidden') return EMPTY_SCHEMA_BYTES;
    throw e;
  }
}

/** Runs `sql` until its first message (the schema), then cancels it. */
function firstMessage(
  service: QueryService,
  sql: string,
  params: ParamValues | undefined,
  principal: Principal,
): Promise<IpcMessage> {
  return new Promise((resolve, reject) => {
    let first: IpcMessage | null = null;
    let cancel = () => {};
    cancel = runArrowQuery(
      service,
      { sql, params, principal },
      {
        write(m) {
          if (first === null) {
            first = m;
            resolve(m);
            queueMicrotask(() => cancel());
          }
          return true;
        },
        onDrain: (resume) => resume(),
        end: () => (first === null ? reject(new QueryFailure({ kind: 'internal', message: 'no schema' })) : undefined),
        fail: (error) => (first === null ? reject(new QueryFailure(error)) : undefined),
      },
    );
  });
}

/**
 * Null values for the placeholders of `sql` (`$1…$n` by the highest number, else `:name`s), so a statement can
 * be planned for its schema before its parameters are bound; undefined when it has none.
 */
export function placeholderNulls(sql: string): ParamValues | undefined {
  let highest = 0;
  for (const m of sql.matchAll(/\$(\d+)/g)) highest = Math.max(highest, Number(m[1]));
  if (highest > 0) return Array.from({ length: highest }, () => null);
  const names = [...sql.matchAll(/(?<![:\w]):([A-Za-z_]\w*)/g)].map((m) => m[1] as string);
  return names.length === 0 ? undefined : Object.fromEntries(names.map((n) => [n, null]));
}

/** How many positional placeholders `sql` has (the parameter schema's width). */
export function placeholderCount(sql: string): number {
  const nulls = placeholderNulls(sql);
  return Array.isArray(nulls) ? nulls.length : 0;
}
