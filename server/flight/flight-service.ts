// `flightHandlers`: the FlightService methods (Flight + Flight SQL) over the query service.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import type { Principal } from '../auth/principal.js';
import { ParameterError } from './arrow-results.js';
import { doAction, FLIGHT_SQL_ACTIONS } from './flight-actions.js';
import { callPrincipal, handshakeToken, peerAddress } from './flight-auth.js';
import {
  commandOf,
  type Descriptor,
  type FlightDataIn,
  type FlightOptions,
  type FlightState,
  guarded,
} from './flight-call.js';
import { type FlightTarget, resolveCommand } from './flight-commands.js';
import { doPut } from './flight-put.js';
import { flightError, isFlightError, statusOf } from './flight-status.js';
import { frameIpcMessage, type IpcMessage } from './ipc-messages.js';
import { PreparedStatements } from './prepared-statements.js';
import { querySchema } from './query-schema.js';
import { QueryFailure, runArrowQuery } from './run-arrow-query.js';

/** The FlightService implementation grpc-js serves. */
export function flightHandlers(options: FlightOptions): grpc.UntypedServiceImplementation {
  const state: FlightState = {
    ...options,
    statements: new PreparedStatements(),
    toStatus(e) {
      if (isFlightError(e)) return e;
      if (e instanceof QueryFailure) return statusOf(e.error);
      if (e instanceof ParameterError) return flightError(grpc.status.INVALID_ARGUMENT, e.message);
      const ref = randomUUID().slice(0, 8);
      options.log(`floe: flight internal error (ref ${ref}): ${(e as Error)?.stack ?? String(e)}`);
      return flightError(grpc.status.INTERNAL, `Internal server error (ref ${ref})`);
    },
    principalOf: (call) =>
      callPrincipal(options.auth, call.metadata, () => peerAddress(call.getPeer()), options.limiter ?? null),
    context(principal) {
      return { service: options.service, sources: options.sources, principal, statements: this.statements };
    },
  };
  return {
    Handshake: (call: grpc.ServerDuplexStream<{ payload?: Buffer }, object>) => handshake(state, call),
    ListFlights: (call: grpc.ServerWritableStream<object, object>) => guarded(state, call, async () => void call.end()),
    GetFlightInfo: (call: grpc.ServerUnaryCall<Descriptor, object>, done: grpc.sendUnaryData<object>) =>
      unary(state, call, done, async (principal) => {
        const target = resolveCommand(commandOf(call.request), state.context(principal));
        return {
          schema: await schemaOf(state, target, principal),
          flightDescriptor: call.request,
          endpoint: [{ ticket: { ticket: Buffer.from(target.ticket) }, location: [] }],
          totalRecords: -1,
          totalBytes: -1,
        };
      }),
    GetSchema: (call: grpc.ServerUnaryCall<Descriptor, object>, done: grpc.sendUnaryData<object>) =>
      unary(state, call, done, async (principal) => {
        const target = resolveCommand(commandOf(call.request), state.context(principal));
        return { schema: await schemaOf(state, target, principal) };
      }),
    DoGet: (call: grpc.ServerWritableStream<{ ticket?: Buffer }, object>) => doGet(state, call),
    DoPut: (call: grpc.ServerDuplexStream<FlightDataIn, object>) => doPut(state, call),
    DoAction: (call: grpc.ServerWritableStream<{ type?: string; body?: Buffer }, object>) => doAction(state, call),
    ListActions: (call: grpc.ServerWritableStream<object, object>) =>
      guarded(state, call, async () => {
        for (const a of FLIGHT_SQL_ACTIONS) call.write(a);
        call.end();
      }),
    DoExchange: (call: grpc.ServerDuplexStream<object, object>) =>
      call.emit('error', flightError(grpc.status.UNIMPLEMENTED, 'DoExchange is not supported yet')),
  };
}

async function schemaOf(state: FlightState, target: FlightTarget, principal: Principal): Promise<Buffer> {
  if (target.kind === 'metadata') return Buffer.from(frameIpcMessage((await target.answer())[0] as IpcMessage));
  return Buffer.from(await querySchema(state.service, target.sql, target.params, principal));
}

function unary<T>(
  state: FlightState,
  call: grpc.ServerUnaryCall<T, object>,
  done: grpc.sendUnaryData<object>,
  handle: (principal: Principal) => Promise<object>,
): void {
  (async () => handle(state.principalOf(call)))().then(
    (answer) => done(null, answer),
    (e) => done(state.toStatus(e) as grpc.ServiceError),
  );
}

/** Handshake: one request in (basic auth in metadata or payload), the bearer token out, in metadata and payload. */
function handshake(state: FlightState, call: grpc.ServerDuplexStream<{ payload?: Buffer }, object>): void {
  let answered = false;
  call.on('data', (request: { payload?: Buffer }) => {
    if (answered) return;
    answered = true;
    try {
      const token = handshakeToken(state.auth, call.metadata, request.payload ?? Buffer.alloc(0), () =>
        peerAddress(call.getPeer()),
      );
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${token}`);
      call.sendMetadata(metadata);
      call.write({ protocolVersion: 0, payload: Buffer.from(token) });
      call.end();
    } catch (e) {
      call.emit('error', state.toStatus(e));
    }
  });
  call.on('end', () => {
    if (!answered) call.end();
  });
}

/** DoGet: a query streamed as FlightData under gRPC flow control, or a metadata answer; a cancel stops the query. */
function doGet(state: FlightState, call: grpc.ServerWritableStream<{ ticket?: Buffer }, object>): void {
  guarded(state, call, async (principal) => {
    const target = resolveCommand(call.request.ticket ?? Buffer.alloc(0), state.context(principal));
    const write = (m: IpcMessage) => call.write({ dataHeader: m.header, dataBody: m.body });
    if (target.kind === 'metadata') {
      for (const m of await target.answer()) write(m);
      call.end();
      return;
    }
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    if (call.cancelled) return;
    runArrowQuery(
      state.service,
      { sql: target.sql, params: target.params, principal, signal: abort.signal },
      {
        write,
        onDrain: (resume) => call.once('drain', resume),
        end: () => call.end(),
        fail: (error) => call.emit('error', statusOf(error)),
      },
    );
  });
}
