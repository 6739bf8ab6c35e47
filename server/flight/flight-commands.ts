// `resolveCommand`: what a FlightDescriptor command or a Ticket asks for: a query (SQL + parameters) or metadata.
import { status } from '@grpc/grpc-js';
import type { ParamValues } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import { packSqlMessage, type SqlMessage, UnknownSqlMessage, unpackSqlMessage } from './flight-protos.js';
import { flightError } from './flight-status.js';
import type { IpcMessage } from './ipc-messages.js';
import type { PreparedStatements } from './prepared-statements.js';
import { getSqlInfo } from './sql-info.js';
import {
  getCatalogs,
  getDbSchemas,
  getPrimaryKeys,
  getTables,
  getTableTypes,
  type MetadataContext,
} from './sql-metadata.js';

/** What a command resolves to, with the ticket that asks for it again in DoGet. */
export type FlightTarget =
  | { readonly kind: 'query'; readonly sql: string; readonly params?: ParamValues; readonly ticket: Uint8Array }
  | { readonly kind: 'metadata'; readonly answer: () => Promise<IpcMessage[]>; readonly ticket: Uint8Array };

export interface CommandContext extends MetadataContext {
  readonly statements: PreparedStatements;
  readonly principal: Principal;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Resolves a GetFlightInfo / GetSchema command or a DoGet ticket: plain Flight bytes are the SQL text (what
 * Spice's SDK sends); Flight SQL commands come packed in an Any. Throws a `FlightError`: INVALID_ARGUMENT for
 * bad input or an unknown prepared statement, UNIMPLEMENTED for a command floe has no handler for.
 */
export function resolveCommand(bytes: Uint8Array, ctx: CommandContext): FlightTarget {
  let message: SqlMessage | null;
  try {
    message = unpackSqlMessage(bytes);
  } catch (e) {
    if (e instanceof UnknownSqlMessage) throw flightError(status.UNIMPLEMENTED, e.message);
    throw e;
  }
  if (message === null) return { kind: 'query', sql: decodeSql(bytes), ticket: bytes };
  const f = message.fields;
  const metadata = (answer: () => IpcMessage[] | Promise<IpcMessage[]>): FlightTarget => ({
    kind: 'metadata',
    answer: async () => answer(),
    ticket: bytes,
  });
  switch (message.name) {
    case 'CommandStatementQuery': {
      const handle = Buffer.from(JSON.stringify({ sql: f.query ?? '' }));
      return {
        kind: 'query',
        sql: f.query ?? '',
        ticket: packSqlMessage('TicketStatementQuery', { statementHandle: handle }),
      };
    }
    case 'TicketStatementQuery':
      return { kind: 'query', sql: statementSql(f.statementHandle), ticket: bytes };
    case 'CommandPreparedStatementQuery': {
      const statement = ctx.statements.get(f.preparedStatementHandle ?? new Uint8Array(0), ctx.principal.id);
      if (statement === undefined) throw flightError(status.INVALID_ARGUMENT, 'Prepared statement not found');
      return { kind: 'query', sql: statement.sql, params: statement.params, ticket: bytes };
    }
    case 'CommandGetSqlInfo':
      return metadata(() => getSqlInfo(f.info ?? []));
    case 'CommandGetCatalogs':
      return metadata(() => getCatalogs(ctx));
    case 'CommandGetDbSchemas':
      return metadata(() => getDbSchemas(ctx, f));
    case 'CommandGetTables':
      return metadata(() => getTables(ctx, f));
    case 'CommandGetTableTypes':
      return metadata(() => getTableTypes());
    case 'CommandGetPrimaryKeys':
      return metadata(() => getPrimaryKeys());
    case 'CommandStatementUpdate':
    case 'CommandPreparedStatementUpdate':
      throw flightError(status.INVALID_ARGUMENT, `${message.name} is sent with DoPut`);
    default:
      throw flightError(status.UNIMPLEMENTED, `Flight SQL command ${message.name} is not supported yet`);
  }
}

/** The SQL text of plain Flight bytes (strict UTF-8). */
export function decodeSql(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw flightError(status.INVALID_ARGUMENT, 'The command is neither a Flight SQL command nor UTF-8 SQL text');
  }
}

/** The SQL a TicketStatementQuery carries (floe's handle is `{"sql": ...}`: tickets need no server state). */
function statementSql(handle: Uint8Array | undefined): string {
  try {
    const parsed = JSON.parse(Buffer.from(handle ?? new Uint8Array(0)).toString('utf8')) as { sql?: unknown };
    if (typeof parsed.sql === 'string') return parsed.sql;
  } catch {}
  throw flightError(status.INVALID_ARGUMENT, 'Invalid statement ticket');
}
