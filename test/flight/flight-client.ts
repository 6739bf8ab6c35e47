// A raw grpc-js FlightService client for the Flight tests: calls with chosen metadata, DoGet read as an Arrow table.
import * as grpc from '@grpc/grpc-js';
import * as arrow from 'apache-arrow';
import { flightServiceDefinition, packSqlMessage } from '../../server/flight/flight-protos.js';
import { frameIpcMessage } from '../../server/flight/ipc-messages.js';

export const CMD = 2;

// biome-ignore lint/suspicious/noExplicitAny: grpc-js generic clients are untyped
export type RawClient = any;

/** A client of the Flight server on `port`. */
export function rawClient(port: number): RawClient {
  const Client = grpc.makeGenericClientConstructor(flightServiceDefinition(), 'FlightService');
  return new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

/** Metadata with the given entries. */
export function meta(entries: Record<string, string> = {}): grpc.Metadata {
  const m = new grpc.Metadata();
  for (const [k, v] of Object.entries(entries)) m.set(k, v);
  return m;
}

/** A CMD descriptor: a Flight SQL command (`name`, `fields`) packed in Any, or plain SQL text. */
export function descriptor(command: string | { name: string; fields?: object }): { type: number; cmd: Buffer } {
  const cmd =
    typeof command === 'string'
      ? Buffer.from(command)
      : Buffer.from(packSqlMessage(command.name, command.fields ?? {}));
  return { type: CMD, cmd };
}

/** GetFlightInfo as a promise. */
export function flightInfo(client: RawClient, desc: object, metadata = meta()): Promise<FlightInfo> {
  return new Promise((resolve, reject) =>
    client.GetFlightInfo(desc, metadata, (e: Error | null, info: FlightInfo) => (e ? reject(e) : resolve(info))),
  );
}

export interface FlightInfo {
  schema: Buffer;
  endpoint: { ticket: { ticket: Buffer } }[];
  totalRecords: string;
}

/** DoGet of `ticket`, read whole into a table (and the number of FlightData messages). */
export function doGet(
  client: RawClient,
  ticket: Buffer,
  metadata = meta(),
): Promise<{ table: arrow.Table; messages: number }> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = [];
    const call = client.DoGet({ ticket }, metadata);
    call.on('data', (d: { dataHeader: Buffer; dataBody: Buffer }) =>
      parts.push(frameIpcMessage({ header: d.dataHeader, body: d.dataBody })),
    );
    call.on('error', reject);
    call.on('end', () => resolve({ table: arrow.tableFromIPC(Buffer.concat(parts)), messages: parts.length }));
  });
}

/** GetFlightInfo then DoGet of its one ticket. */
export async function fetchTable(
  client: RawClient,
  command: string | { name: string; fields?: object },
  metadata = meta(),
): Promise<arrow.Table> {
  const info = await flightInfo(client, descriptor(command), metadata);
  return (await doGet(client, info.endpoint[0]!.ticket.ticket, metadata)).table;
}

/** A table's rows as plain objects (bigints as numbers). */
export function rowsOf(table: arrow.Table): Record<string, unknown>[] {
  return table
    .toArray()
    .map((row) =>
      Object.fromEntries(
        Object.entries(row.toJSON() as Record<string, unknown>).map(([k, v]) => [
          k,
          typeof v === 'bigint' ? Number(v) : v,
        ]),
      ),
    );
}

/** Waits until `cond` holds (polling), or fails after `ms`. */
export async function waitFor(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}
