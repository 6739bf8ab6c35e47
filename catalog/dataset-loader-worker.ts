// Worker entry of `DatasetLoader`: answers check/load requests with the engine's Parquet readers, and refreshes.
import { parentPort } from 'node:worker_threads';
import {
  collectGarbage,
  createParquetTable,
  inferTextSchema,
  loadParquetTable,
  loadTextTable,
  ObjectStoreAccessError,
  type TextReadOptions,
} from '../engine/index.js';
import type { LoaderReply, LoaderRequest } from './dataset-loader.js';
import type { DatasetFailure } from './datasets.js';
import { runRefreshJob } from './refresh-job.js';

parentPort?.on('message', async ({ id, op, files, text, s3, job }: LoaderRequest) => {
  let reply: LoaderReply;
  try {
    if (text !== undefined) {
      reply = await textReply(id, op, files, text);
    } else if (op === 'check') {
      await createParquetTable(files, { s3 });
      reply = { id };
    } else if (op === 'refresh' && job !== undefined) {
      reply = { id, refreshed: await runRefreshJob(job) };
    } else {
      reply = { id, data: await loadParquetTable(files, undefined, { s3 }) };
    }
  } catch (e) {
    const failure =
      e instanceof ObjectStoreAccessError ? e.failure : (e as { failure?: DatasetFailure } | null)?.failure;
    reply = { id, error: e instanceof Error ? e.message : String(e), ...(failure ? { failure } : {}) };
  }
  parentPort?.postMessage(reply);
  // The thread may serve the next load (loader-lease.ts): a full GC now drops this load's handles on the shared
  // memory it built (and on the table it appended to), which an idle thread might otherwise keep for long.
  if (op !== 'check') setImmediate(collectGarbage);
});

/** CSV/JSON: `check` infers the schema (reading the first records), `load` parses every file. */
async function textReply(
  id: number,
  op: LoaderRequest['op'],
  files: readonly string[],
  text: TextReadOptions,
): Promise<LoaderReply> {
  if (op === 'check') return { id, schema: await inferTextSchema(files, text) };
  return { id, data: await loadTextTable(files, text) };
}
