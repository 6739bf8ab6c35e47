// `withTableLock`: one Iceberg change at a time per table location in this process (commits, creates, drops).

const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once every earlier locked call on `location` in this process has settled: two commits here never race,
 * so they never cost each other a retry. Other processes are ordered by the conditional put of the next version.
 */
export async function withTableLock<T>(location: string, fn: () => Promise<T>): Promise<T> {
  const key = location.replace(/\/+$/, '');
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.catch(() => {}).then(fn);
  tails.set(key, run);
  try {
    return await run;
  } finally {
    if (tails.get(key) === run) tails.delete(key);
  }
}
