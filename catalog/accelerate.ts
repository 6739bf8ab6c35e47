// `loadAccelerated`: loads Parquet files into shared memory on a helper thread, never the main thread.
import { Worker } from 'node:worker_threads';
import type { MemoryTableData } from '../engine/index.js';

const LOADER_FILE = new URL('./accelerate-worker.js', import.meta.url);

/**
 * Reads `files` fully with the engine's `loadParquetTable` on a short-lived worker thread, so the main
 * thread keeps answering /health while a large table loads. The result's buffers are SharedArrayBuffers:
 * posting it back (and on to every query worker) shares them instead of copying. Rejects with the loader's
 * error message when a file cannot be read.
 */
export function loadAccelerated(files: readonly string[]): Promise<MemoryTableData> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER_FILE, { workerData: { files } });
    let settled = false;
    worker.once('message', (m: { data?: MemoryTableData; error?: string }) => {
      settled = true;
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.data as MemoryTableData);
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`accelerated table loader exited with code ${code}`));
    });
  });
}
