// A private PostgreSQL cluster for tests: copied from a per-machine template, on a free loopback port, one per process.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options every private cluster starts with: loopback only, durability off (the data is thrown away). */
const SERVER_OPTIONS = [
  '-c listen_addresses=127.0.0.1',
  '-c fsync=off',
  '-c synchronous_commit=off',
  '-c full_page_writes=off',
  '-c max_connections=20',
  '-c shared_buffers=32MB',
  '-c log_min_messages=fatal',
];

export interface PostgresCluster {
  readonly port: number;
  /** A folder the server can read (COPY FROM 'file'); removed with the cluster. */
  readonly dir: string;
  /** Stops the server and removes its folder. */
  stop(): void;
}

/** The folder of PostgreSQL's binaries: $FLOE_PG_BINDIR, Debian's /usr/lib/postgresql/<v>/bin (15 first), or PATH. */
export function findPostgresBinaries(): string {
  const fromEnv = process.env.FLOE_PG_BINDIR;
  if (fromEnv && existsSync(join(fromEnv, 'pg_ctl'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => (a === '15' ? -1 : b === '15' ? 1 : 0)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'pg_ctl'))) return join(root, v, 'bin');
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return join(which.stdout.trim(), '..');
  throw new Error(
    'PostgreSQL is not installed: the differential and generated suites need its binaries (initdb, pg_ctl) in ' +
      '/usr/lib/postgresql/15/bin, on PATH or in $FLOE_PG_BINDIR. Install it with `apt-get install -y ' +
      'postgresql-15` (.ci/run does).',
  );
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when we are root (initdb and postgres refuse root). */
function run(bin: string, args: string[]): void {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr || r.stdout || r.error}`);
}

/** A fresh folder owned by whoever runs the server. */
function makeServerDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  return dir;
}

/**
 * The initdb'd template data folder (text sorts by bytes as in floe, upper/lower know Unicode: LC_COLLATE C,
 * LC_CTYPE C.UTF-8), made once per machine and user (initdb takes seconds, a copy much less). */
function templateDir(bin: string): string {
  const final = join(tmpdir(), `floe-pg-template-v2-${process.getuid?.() ?? 'x'}-${bin.replace(/\W+/g, '_')}`);
  if (existsSync(join(final, 'data', 'PG_VERSION'))) return final;
  const work = makeServerDir('floe-pg-initdb-');
  const args = [
    '-D',
    join(work, 'data'),
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--lc-ctype=C.UTF-8',
    '--no-sync',
  ];
  run(join(bin, 'initdb'), args);
  try {
    renameSync(work, final);
  } catch {
    // Another process made it first: use theirs.
    rmSync(work, { recursive: true, force: true });
  }
  return final;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts a private cluster (a copy of the template) on a free loopback port; retries when the port was taken. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBinaries();
  const template = templateDir(bin);
  const dir = makeServerDir('floe-pg-');
  const data = join(dir, 'data');
  execFileSync('cp', ['-a', join(template, 'data'), data]);
  const pgCtl = join(bin, 'pg_ctl');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const options = [`-p ${port}`, `-k ${dir}`, ...SERVER_OPTIONS].join(' ');
    try {
      run(pgCtl, ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
    } catch (e) {
      if (attempt < 3) continue;
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stop);
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    // A test process that ends without closing its oracle still takes its server down.
    process.once('exit', stop);
    return { port, dir, stop };
  }
}

let shared: { cluster: Promise<PostgresCluster>; users: number } | null = null;

/** The process's one cluster, started on first use; `release` stops it when its last user is done. */
export async function acquirePostgresCluster(): Promise<{ cluster: PostgresCluster; release(): void }> {
  shared ??= { cluster: startPostgresCluster(), users: 0 };
  const entry = shared;
  entry.users++;
  let cluster: PostgresCluster;
  try {
    cluster = await entry.cluster;
  } catch (e) {
    if (shared === entry) shared = null;
    throw e;
  }
  let released = false;
  return {
    cluster,
    release() {
      if (released) return;
      released = true;
      if (--entry.users > 0) return;
      if (shared === entry) shared = null;
      cluster.stop();
    },
  };
}
