// The pool's worker entry: builds the catalog once, then runs one query per task and streams its bytes.
import { workerData } from 'node:worker_threads';
import { type CatalogSnapshot, catalogFromSnapshot } from '../../catalog/snapshot.js';
import { createEngine, type Engine } from '../../engine/index.js';
import { CONTENT_TYPES, createSerializer } from '../serialize/serializer.js';
import { ChunkSender } from './chunk-sender.js';
import type { MainMessage, QueryTask } from './messages.js';
import { toWireError } from './wire-error.js';

/** What `createQueryPool` hands every worker (structured-cloned; SharedArrayBuffers stay shared). */
export interface PoolWorkerData {
  readonly snapshot: CatalogSnapshot;
}

const enginePromise: Promise<Engine> = catalogFromSnapshot((workerData as PoolWorkerData).snapshot).then((catalog) =>
  createEngine({ catalog }),
);
// A catalog failure is reported by each query that awaits it; this only keeps it from being "unhandled".
enginePromise.catch(() => {});

/**
 * Runs `task.sql` and streams the serialized result over `task.port` (see `WorkerMessage` for the order).
 * Resolves when the stream is over, whatever its outcome: errors travel as messages, never as rejections,
 * so Piscina never sees a failed task. A `cancel` message aborts the engine's signal; nothing more is sent.
 */
export default async function runQuery(task: QueryTask): Promise<void> {
  const { port } = task;
  const controller = new AbortController();
  const sender = new ChunkSender(port, { status: 200, contentType: CONTENT_TYPES[task.format] }, controller.signal);
  port.on('message', (m: MainMessage) => {
    if (m.type === 'cancel') controller.abort();
    else sender.ack();
  });
  // The main thread closes its end when the client is gone; stop working for nobody.
  port.on('close', () => controller.abort());
  try {
    const engine = await enginePromise;
    const result = await engine.execute(task.sql, { params: task.params, signal: controller.signal });
    const serializer = createSerializer(task.format);
    await sender.write(serializer.begin(result.schema));
    for await (const batch of result.batches) {
      if (controller.signal.aborted) break;
      await sender.write(serializer.batch(batch));
    }
    if (!controller.signal.aborted) {
      await sender.write(serializer.end());
      sender.end();
    }
  } catch (e) {
    if (!controller.signal.aborted) port.postMessage({ type: 'error', error: toWireError(e) });
  } finally {
    port.close();
  }
}
