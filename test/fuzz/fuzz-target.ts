// The server under fuzzing: a child process (fuzz-server.ts) that can die, be watched and be started again.
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawRequest } from './http-cases.js';
import { sendRaw } from './raw-send.js';

const SERVER_JS = join(dirname(fileURLToPath(import.meta.url)), 'fuzz-server.js');
/** The child's V8 heap: small, so a runaway allocation dies in seconds, not after eating the machine. */
const HEAP_MB = 1024;
const START_TIMEOUT_MS = 60_000;
const LOG_TAIL_LINES = 40;

export class FuzzTarget {
  #child: ChildProcess | null = null;
  #port = 0;
  #exit: string | null = null;
  #log: string[] = [];
  /** Internal errors the server logged, by reference id. */
  readonly #refs = new Map<string, string>();

  constructor(readonly dataDir: string) {}

  get port(): number {
    return this.#port;
  }

  /** How the child ended (`exit code 134`, `signal SIGABRT`), or null while it runs. */
  get exit(): string | null {
    return this.#exit;
  }

  /** The last lines the child wrote to stderr (a fatal error's message is there). */
  logTail(): string[] {
    return [...this.#log];
  }

  async start(): Promise<void> {
    this.#exit = null;
    this.#log = [];
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, SERVER_JS], {
      // Not a test-runner child: the server process must not report to node --test.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, FLOE_FUZZ_DATA: this.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    child.on('exit', (code, signal) => (this.#exit = signal ? `signal ${signal}` : `exit code ${code}`));
    let pending = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      const lines = (pending + d).split('\n');
      pending = lines.pop()!;
      for (const line of lines) this.#logLine(line);
    });
    this.#port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('fuzz server did not start')), START_TIMEOUT_MS);
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const m = /FUZZ_PORT (\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.on('exit', () => reject(new Error(`fuzz server exited at start: ${this.#log.join('\n')}`)));
    });
  }

  #logLine(line: string): void {
    this.#log.push(line);
    if (this.#log.length > LOG_TAIL_LINES) this.#log.shift();
    const m = /\[ref ([0-9a-f]+)\]: (.*)$/.exec(line);
    if (m) this.#refs.set(m[1]!, m[2]!);
  }

  /** The logged internal error behind a 500 body's `(ref …)`, if it has arrived. */
  internalMessage(body: string): string | undefined {
    const ref = /ref ([0-9a-f]+)/.exec(body)?.[1];
    return ref === undefined ? undefined : this.#refs.get(ref);
  }

  /** Waits up to `ms` for a ref's log line (a worker's stderr reaches the parent a little after the answer). */
  async waitForRef(body: string, ms = 300): Promise<string | undefined> {
    for (let waited = 0; waited <= ms; waited += 25) {
      const found = this.internalMessage(body);
      if (found !== undefined || !/ref [0-9a-f]+/.test(body)) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  }

  /** GET /health answers 200 within `deadlineMs`. */
  async healthy(deadlineMs = 10_000): Promise<boolean> {
    if (this.#exit !== null) return false;
    const out = await sendRaw(this.#port, { bytes: rawRequest('GET', '/health', []) }, deadlineMs);
    return out.responses[0]?.status === 200;
  }

  /** Stops the child (SIGTERM, then SIGKILL after 5 s) and waits for it to end. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exit !== null) return;
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await ended;
    clearTimeout(timer);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}
