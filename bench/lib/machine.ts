// The facts about the machine and the software that a benchmark result is only meaningful with.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { REPO_ROOT } from './paths.js';

export interface MachineFacts {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  /** Versions of floe and of the packages whose speed is measured or that measure. */
  readonly packages: Record<string, string>;
  /** The floe tree's commit, with `-dirty` when it has uncommitted changes (outside bench/results/). */
  readonly commit: string;
  /** 1-minute load average when the run started: other work on a shared machine skews every number. */
  readonly loadAverage: number;
}

const PACKAGES = [
  '@duckdb/node-api',
  'parquet-wasm',
  'apache-arrow',
  'hyparquet',
  'piscina',
  'autocannon',
  'nodejs-polars',
  'alasql',
];

export function machineFacts(): MachineFacts {
  const version = (dir: string) => {
    try {
      return (JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { version: string }).version;
    } catch {
      return 'not installed';
    }
  };
  const packages: Record<string, string> = { floe: version(REPO_ROOT) };
  for (const p of PACKAGES) packages[p] = version(`${REPO_ROOT}/node_modules/${p}`);
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    packages,
    commit: gitCommit(),
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
  };
}

function gitCommit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    // Results files do not change what is measured: a run that replaces one is still a clean run.
    const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results');
    return git('rev-parse', '--short', 'HEAD') + (changed ? '-dirty' : '');
  } catch {
    return 'unknown';
  }
}

/** One line for a report: where and with what the numbers were measured. */
export function machineLine(m: MachineFacts): string {
  return (
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ` +
    `@duckdb/node-api ${m.packages['@duckdb/node-api']}; floe ${m.commit}; load average ${m.loadAverage} at the start.`
  );
}
