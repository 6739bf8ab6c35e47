// Clients for the result-formats bench: fetch a whole /v1/sql result, counting what arrived without keeping it.
import * as grpc from '@grpc/grpc-js';
import * as arrow from 'apache-arrow';
import { flightServiceDefinition } from '../../server/flight/flight-protos.js';
import { frameIpcMessage } from '../../server/flight/ipc-messages.js';

/** The running floe server a fetcher talks to. */
export interface FloeServer {
  /** `http://127.0.0.1:<port>/v1/sql` */
  readonly httpUrl: string;
  /** The Flight listener's port. */
  readonly flightPort: number;
}

/** One transport: fetches the result of `sql` and reports the rows and bytes it received. */
export interface ResultFetcher {
  readonly name: string;
  run(server: FloeServer, sql: string): Promise<{ rows: number; bytes: number }>;
}

/** POSTs `sql` with `accept`; the body's chunks as they arrive (an error status throws with its text). */
async function* bodyChunks(url: string, sql: string, accept: string): AsyncGenerator<Uint8Array> {
  const res = await fetch(url, { method: 'POST', body: sql, headers: { accept } });
  if (res.status !== 200 || res.body === null) throw new Error(`${res.status}: ${await res.text()}`);
  yield* res.body as unknown as AsyncIterable<Uint8Array>;
}

/**
 * A text format's rows counted by one byte each row holds exactly once (`}` for JSON rows without nested objects or
 * braces in text, `\n` for NDJSON): memchr through `Buffer.indexOf`, no parsing.
 */
export async function fetchCounting(
  url: string,
  sql: string,
  accept: string,
  rowByte: number,
): Promise<{ rows: number; bytes: number }> {
  let rows = 0;
  let bytes = 0;
  for await (const chunk of bodyChunks(url, sql, accept)) {
    bytes += chunk.length;
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let at = buf.indexOf(rowByte); at >= 0; at = buf.indexOf(rowByte, at + 1)) rows++;
  }
  return { rows, bytes };
}

/** The Arrow stream read batch by batch with apache-arrow's reader, as a client would (rows from the batches). */
export async function fetchArrow(url: string, sql: string): Promise<{ rows: number; bytes: number }> {
  let bytes = 0;
  async function* counted() {
    for await (const chunk of bodyChunks(url, sql, 'application/vnd.apache.arrow.stream')) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  let rows = 0;
  const reader = await arrow.RecordBatchReader.from(counted());
  for await (const batch of reader) rows += batch.numRows;
  return { rows, bytes };
}

/**
 * Flight DoGet with the SQL as the ticket (as Spice's SDK sends it), each FlightData framed back into IPC and read
 * batch by batch with apache-arrow's reader, like the HTTP Arrow fetcher; bytes are the data headers and bodies.
 */
export async function fetchFlight(port: number, sql: string): Promise<{ rows: number; bytes: number }> {
  const Client = grpc.makeGenericClientConstructor(flightServiceDefinition(), 'FlightService');
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
  });
  let bytes = 0;
  try {
    const call = (
      client as unknown as { DoGet(t: object): AsyncIterable<{ dataHeader: Buffer; dataBody: Buffer }> }
    ).DoGet({ ticket: Buffer.from(sql) });
    async function* framed() {
      for await (const d of call) {
        bytes += d.dataHeader.length + d.dataBody.length;
        yield frameIpcMessage({ header: d.dataHeader, body: d.dataBody });
      }
    }
    let rows = 0;
    const reader = await arrow.RecordBatchReader.from(framed());
    for await (const batch of reader) rows += batch.numRows;
    return { rows, bytes };
  } finally {
    client.close();
  }
}
