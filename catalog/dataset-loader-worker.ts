// Worker entry of `DatasetLoader`: answers check/load requests with the engine's Parquet readers.
import { parentPort } from 'node:worker_threads';
import { createParquetTable, loadParquetTable, ObjectStoreAccessError } from '../engine/index.js';
import type { LoaderReply, LoaderRequest } from './dataset-loader.js';

parentPort?.on('message', async ({ id, op, files, s3 }: LoaderRequest) => {
  let reply: LoaderReply;
  try {
    if (op === 'check') {
      await createParquetTable(files, { s3 });
      reply = { id };
    } else {
      reply = { id, data: await loadParquetTable(files, undefined, { s3 }) };
    }
  } catch (e) {
    const failure = e instanceof ObjectStoreAccessError ? e.failure : undefined;
    reply = { id, error: e instanceof Error ? e.message : String(e), ...(failure ? { failure } : {}) };
  }
  parentPort?.postMessage(reply);
});
