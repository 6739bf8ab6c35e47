// Worker entry of `DatasetLoader`: answers check/load requests with the engine's Parquet readers, and refreshes.
import { parentPort } from 'node:worker_threads';
import { createParquetTable, loadParquetTable } from '../engine/index.js';
import type { LoaderReply, LoaderRequest } from './dataset-loader.js';
import type { DatasetFailure } from './datasets.js';
import { runRefreshJob } from './refresh-job.js';

parentPort?.on('message', async ({ id, op, files, job }: LoaderRequest) => {
  let reply: LoaderReply;
  try {
    if (op === 'check') {
      await createParquetTable(files);
      reply = { id };
    } else if (op === 'refresh' && job !== undefined) {
      reply = { id, refreshed: await runRefreshJob(job) };
    } else {
      reply = { id, data: await loadParquetTable(files) };
    }
  } catch (e) {
    const failure = (e as { failure?: DatasetFailure }).failure;
    reply = { id, error: e instanceof Error ? e.message : String(e), failure };
  }
  parentPort?.postMessage(reply);
});
