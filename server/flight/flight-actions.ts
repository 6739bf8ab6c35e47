// `doAction`: the Flight SQL actions CreatePreparedStatement and ClosePreparedStatement.
import * as grpc from '@grpc/grpc-js';
import { parameterSchemaBytes } from './arrow-results.js';
import { type FlightState, guarded } from './flight-call.js';
import { packSqlMessage, unpackSqlMessage } from './flight-protos.js';
import { flightError } from './flight-status.js';
import { placeholderCount, placeholderNulls, querySchema } from './query-schema.js';

/** What ListActions answers. */
export const FLIGHT_SQL_ACTIONS = [
  {
    type: 'CreatePreparedStatement',
    description: 'Prepares a SQL statement (ActionCreatePreparedStatementRequest); bind $1..$n with DoPut',
  },
  { type: 'ClosePreparedStatement', description: 'Closes a prepared statement (ActionClosePreparedStatementRequest)' },
];

/**
 * CreatePreparedStatement answers the handle, the result's schema (planned with NULL for every placeholder) and
 * a parameter schema of `$1…$n` typed Null (floe types parameters when they are bound); ClosePreparedStatement
 * answers nothing. Other actions: UNIMPLEMENTED.
 */
export function doAction(
  state: FlightState,
  call: grpc.ServerWritableStream<{ type?: string; body?: Buffer }, object>,
) {
  guarded(state, call, async (principal) => {
    const type = call.request.type ?? '';
    const message = unpackSqlMessage(call.request.body ?? Buffer.alloc(0));
    if (type === 'CreatePreparedStatement' && message?.name === 'ActionCreatePreparedStatementRequest') {
      const sql = String(message.fields.query ?? '');
      const datasetSchema = await querySchema(state.service, sql, placeholderNulls(sql), principal);
      const handle = state.statements.create(sql, principal.id);
      const result = {
        preparedStatementHandle: handle,
        datasetSchema,
        parameterSchema: parameterSchemaBytes(placeholderCount(sql)),
      };
      call.write({ body: Buffer.from(packSqlMessage('ActionCreatePreparedStatementResult', result)) });
      call.end();
      return;
    }
    if (type === 'ClosePreparedStatement' && message?.name === 'ActionClosePreparedStatementRequest') {
      state.statements.close(message.fields.preparedStatementHandle ?? new Uint8Array(0), principal.id);
      call.end();
      return;
    }
    if (type === 'CreatePreparedStatement' || type === 'ClosePreparedStatement') {
      throw flightError(grpc.status.INVALID_ARGUMENT, `Invalid body for action ${type}`);
    }
    throw flightError(grpc.status.UNIMPLEMENTED, `Action ${type} is not supported yet`);
  });
}
