// The Flight protos at run time: FlightService for grpc-js (proto-loader), Flight SQL messages packed in Any.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';

/** Where the .proto files are: copied beside the compiled code by `npm run build`, else the source folder. */
function protoDir(): string {
  const beside = fileURLToPath(new URL('./proto/', import.meta.url));
  if (existsSync(`${beside}Flight.proto`)) return beside;
  return fileURLToPath(new URL('../../../server/flight/proto/', import.meta.url));
}

const DIR = protoDir();

/** Options shared with the clients: bytes as Buffers, 64-bit integers as strings, enums as numbers. */
const LOADER_OPTIONS: protoLoader.Options = { keepCase: false, longs: String, enums: Number, defaults: true };

/** The FlightService definition grpc-js serves. */
export function flightServiceDefinition(): grpc.ServiceDefinition {
  const definition = protoLoader.loadSync(`${DIR}Flight.proto`, LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    arrow: { flight: { protocol: { FlightService: { service: grpc.ServiceDefinition } } } };
  };
  return loaded.arrow.flight.protocol.FlightService.service;
}

const SQL_PACKAGE = 'arrow.flight.protocol.sql';
/** The prefix of every Flight SQL message's Any type_url. */
export const SQL_TYPE_URL = `type.googleapis.com/${SQL_PACKAGE}.`;

const root = protobuf.loadSync(`${DIR}FlightSql.proto`);
const anyType = protobuf.Type.fromJSON('Any', {
  fields: { typeUrl: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } },
});

/** A decoded Flight SQL message: its name (e.g. `CommandStatementQuery`) and its fields in camelCase. */
export interface SqlMessage {
  readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: protobufjs answers plain objects shaped by the proto
  readonly fields: Record<string, any>;
}

/** `fields` as Flight SQL message `name`, without the Any wrapper (e.g. DoPut's app_metadata). */
export function encodeSqlMessage(name: string, fields: object): Uint8Array {
  const type = root.lookupType(`${SQL_PACKAGE}.${name}`);
  return type.encode(type.fromObject(fields)).finish();
}

/** `fields` as Flight SQL message `name`, packed in a google.protobuf.Any. */
export function packSqlMessage(name: string, fields: object): Uint8Array {
  const value = encodeSqlMessage(name, fields);
  return anyType.encode(anyType.fromObject({ typeUrl: SQL_TYPE_URL + name, value })).finish();
}

/**
 * The Flight SQL message packed in `bytes`; null when `bytes` is not an Any of a Flight SQL type (plain Flight:
 * the bytes are the SQL text). Throws `UnknownSqlMessage` for a Flight SQL type floe does not know.
 */
export function unpackSqlMessage(bytes: Uint8Array): SqlMessage | null {
  let any: { typeUrl?: string; value?: Uint8Array };
  try {
    any = anyType.decode(bytes) as { typeUrl?: string; value?: Uint8Array };
  } catch {
    return null;
  }
  const url = any.typeUrl ?? '';
  if (!url.startsWith(SQL_TYPE_URL)) return null;
  const name = url.slice(SQL_TYPE_URL.length);
  const type = root.lookup(`${SQL_PACKAGE}.${name}`);
  if (!(type instanceof protobuf.Type)) throw new UnknownSqlMessage(name);
  const message = type.decode(any.value ?? new Uint8Array(0));
  return { name, fields: type.toObject(message, { longs: String, arrays: true }) };
}

/** A Flight SQL command floe has no handler for (answered UNIMPLEMENTED). */
export class UnknownSqlMessage extends Error {
  constructor(readonly command: string) {
    super(`Flight SQL command ${command} is not supported yet`);
  }
}

/** The row count of a DoPutUpdateResult (DoPut's app_metadata after an update). */
export function decodeDoPutUpdate(bytes: Uint8Array): number {
  const type = root.lookupType(`${SQL_PACKAGE}.DoPutUpdateResult`);
  return Number((type.toObject(type.decode(bytes), { longs: String }) as { recordCount?: string }).recordCount ?? 0);
}
