// `listenFlight`: the Arrow Flight / Flight SQL listener (gRPC, plaintext) on `runtime.flight`'s address.
import * as grpc from '@grpc/grpc-js';
import type { FlightOptions } from './flight-call.js';
import { flightServiceDefinition } from './flight-protos.js';
import { flightHandlers } from './flight-service.js';

export interface FlightListener {
  readonly port: number;
  /** Stops accepting calls and waits up to `graceMs` for running ones, then cuts them. */
  close(graceMs: number): Promise<void>;
}

/**
 * Serves FlightService on `host:port` (0 picks a free port). Incoming messages up to 64 MiB (DoPut batches);
 * outgoing ones are the result's IPC messages, each well below a client's usual 4 MiB limit as long as batches
 * are. Rejects with `cannot listen on HOST:PORT (flight): ...` when the address is taken.
 */
export function listenFlight(options: FlightOptions, host: string, port: number): Promise<FlightListener> {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 64 << 20 });
  server.addService(flightServiceDefinition(), flightHandlers(options));
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) => {
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) => {
      if (error !== null) {
        server.forceShutdown();
        reject(new Error(`cannot listen on ${host}:${port} (flight): ${error.message}`));
        return;
      }
      resolve({ port: bound, close: (graceMs) => shutdown(server, graceMs) });
    });
  });
}

function shutdown(server: grpc.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
