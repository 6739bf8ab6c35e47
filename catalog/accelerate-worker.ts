// Worker entry for `loadAccelerated`: loads one table's files and posts the shared data back, then exits.
import { parentPort, workerData } from 'node:worker_threads';
import { loadParquetTable } from '../engine/index.js';

const { files } = workerData as { files: string[] };
try {
  const data = await loadParquetTable(files);
  parentPort?.postMessage({ data });
} catch (e) {
  parentPort?.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
