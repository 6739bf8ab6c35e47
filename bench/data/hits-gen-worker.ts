// Worker entry for `generateHits`: makes one chunk per message and answers with its raw file's path (or an error).
import { parentPort } from 'node:worker_threads';
import { type HitsJob, writeRawChunk } from './hits-gen.js';

parentPort!.on('message', (job: HitsJob) => {
  writeRawChunk(job).then(
    (result) => parentPort!.postMessage({ result }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
