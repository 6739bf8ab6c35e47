// `EngineProcess`: the parent's handle on one engine child: requests one at a time, a hard time limit, and a
// fresh child (data loaded again) after a crash, so one runaway query cannot end the whole benchmark.
import { type ChildProcess, fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import type { ChildReply, ChildRequest } from './engine-child.js';

const CHILD_SCRIPT = new URL('./engine-child.js', import.meta.url);
/** Lines a child writes to stderr that are not worth showing: polars warns on every `date '…'` literal. */
const STDERR_NOISE = /^(Deprecation: Casting from String to Date is deprecated|Use `str\.to_date\(\)` instead\.)/;

type Load = Extract<ChildRequest, { type: 'load' }>;

export class EngineProcess {
  readonly #load: Load;
  #child: ChildProcess | null = null;
  #pending: { resolve: (r: ChildReply) => void; reject: (e: Error) => void } | null = null;
  #exitReason = 'not started';
  /** The largest peak RSS of every child this handle has run (a crashed child's peak is lost). */
  peakRssMiB = 0;

  constructor(load: Load) {
    this.#load = load;
  }

  /** False once the child has exited or been killed. */
  get running(): boolean {
    const child = this.#child;
    return child !== null && !child.killed && child.exitCode === null && child.signalCode === null;
  }

  /** Starts a child and loads the data; returns the load reply (time and RSS after loading). */
  async start(): Promise<Extract<ChildReply, { type: 'loaded' }>> {
    const child = fork(CHILD_SCRIPT, [], {
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
      // floe runs with the server's V8 flags, as it does behind `npm start`.
      execArgv: [...process.execArgv, '--expose-gc', ...(this.#load.engine === 'floe' ? SERVER_NODE_FLAGS : [])],
    });
    this.#child = child;
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!STDERR_NOISE.test(line)) process.stderr.write(`${line}\n`);
    });
    child.on('message', (m: ChildReply) => {
      const p = this.#pending;
      this.#pending = null;
      if (m.type === 'error') p?.reject(new Error(m.message));
      else p?.resolve(m);
    });
    child.on('exit', (code, signal) => {
      if (this.#child === child) this.#child = null;
      this.#exitReason = `${this.#load.engine} process exited (${signal ?? `code ${code}`})`;
      const p = this.#pending;
      this.#pending = null;
      p?.reject(new Error(this.#exitReason));
    });
    return (await this.request(this.#load, 30 * 60_000)) as Extract<ChildReply, { type: 'loaded' }>;
  }

  /** Sends one request; past `limitMs` the child is killed and the promise rejects. */
  request(m: ChildRequest, limitMs: number): Promise<ChildReply> {
    const child = this.#child;
    if (!child) return Promise.reject(new Error(this.#exitReason));
    return new Promise<ChildReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no answer within ${Math.round(limitMs / 1000)} s (killed)`));
      }, limitMs);
      this.#pending = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      child.send(m);
    });
  }

  /** Records the child's peak RSS, then ends it. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const stats = await this.request({ type: 'stats' }, 10_000).catch(() => null);
    if (stats?.type === 'stats') this.peakRssMiB = Math.max(this.peakRssMiB, stats.peakRssMiB);
    const exited = new Promise((r) => child.once('exit', r));
    child.disconnect();
    await exited;
  }

  /** Replaces a dead or stuck child with a fresh one (the data is loaded again). */
  async restart(): Promise<void> {
    await this.stop().catch(() => {});
    this.#child?.kill('SIGKILL');
    await this.start();
  }
}
