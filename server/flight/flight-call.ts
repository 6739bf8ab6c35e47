// `FlightState` and call helpers shared by the FlightService handlers (principal, errors, descriptors).
import * as grpc from '@grpc/grpc-js';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { RestCatalogSource } from '../iceberg/rest-source.js';
import type { QueryService } from '../runtime/query-service.js';
import type { CommandContext } from './flight-commands.js';
import { type FlightError, flightError } from './flight-status.js';
import type { PreparedStatements } from './prepared-statements.js';

export interface FlightOptions {
  readonly service: QueryService;
  readonly auth: Authenticator;
  /** `runtime.http.rate_limit`'s buckets, shared with HTTP; null or absent: no limit. */
  readonly limiter?: RateLimiter | null;
  /** The catalogs the metadata commands list (the Iceberg REST API's sources). */
  readonly sources: () => readonly RestCatalogSource[];
  /** Internal errors (their stacks) go here, under the reference the client sees. */
  readonly log: (line: string) => void;
}

/** Everything a handler needs besides its call. */
export interface FlightState extends FlightOptions {
  readonly statements: PreparedStatements;
  /** A thrown error as a status (internal ones logged with a reference). */
  toStatus(e: unknown): FlightError;
  /** The caller's principal, or throws UNAUTHENTICATED. */
  principalOf(call: { metadata: grpc.Metadata; getPeer(): string }): Principal;
  context(principal: Principal): CommandContext;
}

export interface Descriptor {
  readonly type?: number;
  readonly cmd?: Buffer;
  readonly path?: string[];
}

/** One FlightData as the DoPut stream delivers it. */
export interface FlightDataIn {
  readonly flightDescriptor?: Descriptor | null;
  readonly dataHeader?: Buffer;
  readonly dataBody?: Buffer;
  readonly appMetadata?: Buffer;
}

const CMD = 2;

/** The command bytes of a CMD descriptor; PATH descriptors are refused. */
export function commandOf(descriptor: Descriptor | null | undefined): Uint8Array {
  if (descriptor?.type !== CMD) {
    throw flightError(grpc.status.UNIMPLEMENTED, 'Only CMD flight descriptors are supported yet');
  }
  return descriptor.cmd ?? Buffer.alloc(0);
}

/** Runs a streaming handler, ending the call with the status of what it throws. */
export function guarded(
  state: FlightState,
  call: grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>,
  handle: (principal: Principal) => Promise<void>,
): void {
  (async () => handle(state.principalOf(call)))().catch((e) => call.emit('error', state.toStatus(e)));
}
