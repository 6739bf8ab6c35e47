// Worker entry for `generateTpch`: makes one chunk per message and answers with its row counts (or an error).
import { parentPort } from 'node:worker_threads';
import { type ChunkJob, writeChunk } from './tpch-chunk-writer.js';

parentPort!.on('message', (job: ChunkJob) => {
  writeChunk(job).then(
    (result) => parentPort!.postMessage({ result }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
