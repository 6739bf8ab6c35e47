// `doPut`: Flight SQL's DoPut: parameter batches for prepared statements, and updates (INSERT) with their row count.
import * as grpc from '@grpc/grpc-js';
import * as arrow from 'apache-arrow';
import type { ParamValues } from '../../engine/index.js';
import type { Principal } from '../auth/principal.js';
import { readParameters } from './arrow-results.js';
import { commandOf, type FlightDataIn, type FlightState } from './flight-call.js';
import { encodeSqlMessage, unpackSqlMessage } from './flight-protos.js';
import { flightError } from './flight-status.js';
import { frameIpcMessage, type IpcMessage } from './ipc-messages.js';
import { collectArrowQuery } from './run-arrow-query.js';

/**
 * Reads the whole DoPut stream (parameter batches are one row), then by its first descriptor:
 * CommandPreparedStatementQuery binds the batch to the statement (answer: DoPutPreparedStatementResult with the
 * same handle); CommandStatementUpdate runs the SQL, CommandPreparedStatementUpdate the statement with the batch
 * bound (answer: DoPutUpdateResult with the rows written). Anything else: UNIMPLEMENTED.
 */
export function doPut(state: FlightState, call: grpc.ServerDuplexStream<FlightDataIn, object>): void {
  let principal: Principal;
  try {
    principal = state.principalOf(call);
  } catch (e) {
    call.emit('error', state.toStatus(e));
    return;
  }
  let descriptor: FlightDataIn['flightDescriptor'];
  const messages: IpcMessage[] = [];
  call.on('data', (data: FlightDataIn) => {
    descriptor ??= data.flightDescriptor;
    if (data.dataHeader !== undefined && data.dataHeader.length > 0) {
      messages.push({ header: data.dataHeader, body: data.dataBody ?? Buffer.alloc(0) });
    }
  });
  call.on('end', () => {
    answerPut(state, principal, descriptor, messages).then(
      (appMetadata) => {
        call.write({ appMetadata: Buffer.from(appMetadata) });
        call.end();
      },
      (e) => call.emit('error', state.toStatus(e)),
    );
  });
}

async function answerPut(
  state: FlightState,
  principal: Principal,
  descriptor: FlightDataIn['flightDescriptor'],
  messages: readonly IpcMessage[],
): Promise<Uint8Array> {
  const message = unpackSqlMessage(commandOf(descriptor));
  const f = message?.fields ?? {};
  switch (message?.name) {
    case 'CommandPreparedStatementQuery': {
      const handle = f.preparedStatementHandle ?? new Uint8Array(0);
      const statement = state.statements.get(handle, principal.id);
      if (statement === undefined) throw flightError(grpc.status.INVALID_ARGUMENT, 'Prepared statement not found');
      statement.params = messages.length === 0 ? undefined : readParameters(messages);
      return encodeSqlMessage('DoPutPreparedStatementResult', { preparedStatementHandle: handle });
    }
    case 'CommandStatementUpdate':
      return updateResult(await runUpdate(state, principal, String(f.query ?? ''), undefined));
    case 'CommandPreparedStatementUpdate': {
      const statement = state.statements.get(f.preparedStatementHandle ?? new Uint8Array(0), principal.id);
      if (statement === undefined) throw flightError(grpc.status.INVALID_ARGUMENT, 'Prepared statement not found');
      const params = messages.length === 0 ? statement.params : readParameters(messages);
      return updateResult(await runUpdate(state, principal, statement.sql, params));
    }
    default:
      throw flightError(
        grpc.status.UNIMPLEMENTED,
        message === null
          ? 'DoPut of plain Flight data is not supported yet'
          : `DoPut with ${message.name} is not supported yet`,
      );
  }
}

/** Runs a write and reads the rows it wrote: the first column of its one-row answer (0 when it has none). */
async function runUpdate(
  state: FlightState,
  principal: Principal,
  sql: string,
  params: ParamValues | undefined,
): Promise<number> {
  const messages = await collectArrowQuery(state.service, { sql, params, principal });
  const table = arrow.tableFromIPC(Buffer.concat(messages.map((m) => frameIpcMessage(m))));
  const value = table.numRows > 0 ? table.getChildAt(0)?.get(0) : 0;
  return Number(value ?? 0);
}

function updateResult(rows: number): Uint8Array {
  return encodeSqlMessage('DoPutUpdateResult', { recordCount: rows });
}
