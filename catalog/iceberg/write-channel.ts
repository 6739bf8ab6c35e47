// The writes channel: a worker's `callWrite` and the main thread's `serveWrites`, over one BroadcastChannel per server.
import { randomUUID } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { WriteCall, WriteMessage, WriteReply } from './write-protocol.js';

let client: { port: BroadcastChannel; pending: Map<string, (reply: WriteReply) => void> } | null = null;

/**
 * Points this thread's writes at the server whose writes channel is `name` (a query worker calls it once at
 * start). Without it `callWrite` fails: threads that only read (loaders, parallel helpers) never write.
 */
export function connectWrites(name: string): void {
  client?.port.close();
  const pending = new Map<string, (reply: WriteReply) => void>();
  const port = new BroadcastChannel(name);
  port.onmessage = (e) => {
    const m = (e as { data: WriteMessage }).data;
    if (m.type !== 'reply') return;
    const resolve = pending.get(m.id);
    if (resolve === undefined) return;
    pending.delete(m.id);
    if (pending.size === 0) port.unref();
    resolve(m.reply);
  };
  port.unref();
  client = { port, pending };
}

/** Sends `call` to the main thread and waits for its answer (the port keeps the thread alive meanwhile). */
export function callWrite(call: WriteCall): Promise<WriteReply> {
  const c = client;
  if (c === null)
    return Promise.resolve({ ok: false, kind: 'not_supported', message: 'writes are not available on this thread' });
  const id = randomUUID();
  return new Promise((resolve) => {
    c.pending.set(id, resolve);
    c.port.ref();
    c.port.postMessage({ type: 'call', id, call } satisfies WriteMessage);
  });
}

/**
 * Answers the calls on writes channel `name` with `handle` (the main thread's Iceberg catalogs); a handler that
 * throws answers an internal error. Returns the function that closes the channel.
 */
export function serveWrites(name: string, handle: (call: WriteCall) => Promise<WriteReply>): () => void {
  const port = new BroadcastChannel(name);
  port.onmessage = (e) => {
    const m = (e as { data: WriteMessage }).data;
    if (m.type !== 'call') return;
    handle(m.call)
      .catch((err): WriteReply => ({ ok: false, kind: 'internal', message: String(err?.message ?? err) }))
      .then((reply) => port.postMessage({ type: 'reply', id: m.id, reply } satisfies WriteMessage));
  };
  port.unref();
  return () => port.close();
}
