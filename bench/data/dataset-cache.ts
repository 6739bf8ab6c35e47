// What the seeded data set generators share: a set is made in a private folder and renamed into place whole, and its
// chunks are made on worker threads (or this one), each independent of the others.
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

/**
 * Renames the finished set `partial` to `dir`; a complete set already there (another process's, as `isComplete`
 * says) wins.
 */
export async function moveIntoPlace(
  partial: string,
  dir: string,
  isComplete: (dir: string) => Promise<boolean>,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(partial, dir);
      return;
    } catch (e) {
      if (await isComplete(dir)) return rm(partial, { recursive: true, force: true });
      if (attempt === 2) throw e;
      // An interrupted set of an older run is in the way: move it aside (atomically), delete it, try again.
      const stale = `${dir}.stale-${randomUUID()}`;
      await rename(dir, stale).catch(() => {});
      await rm(stale, { recursive: true, force: true });
    }
  }
}

/**
 * Runs the jobs on `threads` worker threads started from `workerUrl` (which answers each job message with
 * `{ result }` or `{ error }`), or on this thread with `inline` when `threads` is 1; results in job order.
 */
export async function runJobs<J, R>(
  jobs: readonly J[],
  threads: number,
  inline: (job: J) => Promise<R>,
  workerUrl: URL,
  describe: (job: J) => string,
): Promise<R[]> {
  const results: R[] = new Array(jobs.length);
  if (threads <= 1) {
    for (const [i, job] of jobs.entries()) results[i] = await inline(job);
    return results;
  }
  let next = 0;
  const work = async () => {
    const worker = new Worker(workerUrl);
    try {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await inWorker<J, R>(worker, jobs[i]!, describe);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(threads, jobs.length) }, work));
  return results;
}

function inWorker<J, R>(worker: Worker, job: J, describe: (job: J) => string): Promise<R> {
  return new Promise((resolve, reject) => {
    const done = (m: { result?: R; error?: string }) => {
      worker.off('error', reject);
      if (m.error !== undefined) reject(new Error(`generating ${describe(job)}: ${m.error}`));
      else resolve(m.result!);
    };
    worker.once('message', done);
    worker.once('error', reject);
    worker.postMessage(job);
  });
}
