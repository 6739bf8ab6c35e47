// A child process appending to one Iceberg table in a loop (concurrency and kill -9 tests): its own module state,
// so no in-process lock is shared with the test or other children.
import { type ChildProcess, spawn } from 'node:child_process';

const COMMIT = new URL('../../catalog/iceberg/commit.js', import.meta.url).href;
const HELPERS = new URL('./helpers.js', import.meta.url).href;
const ENGINE = new URL('../../engine/index.js', import.meta.url).href;

/**
 * Warms up, prints `ready`, then for i in 0..count-1 (forever when count is 0) writes rows `first + i*rows ...` as one data
 * file and appends it, printing `committed <version> <rows>` after each; `stats <commits> <conflicts>` at the end.
 */
const SCRIPT = `
  import { commitFiles, commitStats } from ${JSON.stringify(COMMIT)};
  import { writeDataFile, range } from ${JSON.stringify(HELPERS)};
  import { objectStoreFor } from ${JSON.stringify(ENGINE)};
  const { TABLE, COUNT, FIRST, ROWS } = process.env;
  const store = objectStoreFor(TABLE);
  const rows = Number(ROWS);
  // Warm up (Parquet writer, first compiles) outside the table, so kills after 'ready' land in commits.
  await writeDataFile(TABLE + '-warmup', [0]);
  process.stdout.write('ready\\n');
  for (let i = 0; Number(COUNT) === 0 || i < Number(COUNT); i++) {
    const start = Number(FIRST) + i * rows;
    const file = await writeDataFile(TABLE, range(start, start + rows - 1));
    const done = await commitFiles(store, TABLE, 'append', [file]);
    process.stdout.write('committed ' + done.version + ' ' + rows + '\\n');
  }
  process.stdout.write('stats ' + commitStats.commits + ' ' + commitStats.conflicts + '\\n');
`;

export interface Appender {
  readonly child: ChildProcess;
  /** Lines printed so far. */
  readonly lines: string[];
  /** Resolves once the child printed `ready`. */
  readonly ready: Promise<void>;
  /** Resolves with the exit code (null when killed) once it exited. */
  readonly exited: Promise<number | null>;
}

export function startAppender(table: string, opts: { count: number; first: number; rows: number }): Appender {
  const env = {
    ...process.env,
    TABLE: table,
    COUNT: String(opts.count),
    FIRST: String(opts.first),
    ROWS: String(opts.rows),
  };
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      if (line === 'ready') onReady();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(stderr);
      onReady();
      resolve(code);
    }),
  );
  return { child, lines, ready, exited };
}
