// A child process holding one engine over one data set; the parent sends one request at a time (see ChildRequest),
// so that the two engines never run at once and each has its own load time and peak RSS.
import type { ResultRows } from '../lib/result-rows.js';
import { type BenchEngine, type DataMode, openEngine } from './bench-engines.js';
import type { EngineName } from './engine-names.js';

export type ChildRequest =
  | {
      type: 'load';
      engine: EngineName;
      dir: string;
      mode: DataMode;
      threads: number;
      /** The tables to open (folders of `dir`); default TPC-H's. */
      tables?: readonly string[];
      /** False: floe without its plan cache. Default true. */
      planCache?: boolean;
    }
  | { type: 'run'; sql: string; collect: boolean; timeoutMs: number }
  | { type: 'stats' };

export type ChildReply =
  | { type: 'loaded'; ms: number; rssMiB: number; dataMiB: number | null; threads: number | null }
  | { type: 'ran'; ms: number; rowCount: number; rows?: ResultRows }
  | { type: 'stats'; peakRssMiB: number; rssMiB: number }
  | { type: 'error'; message: string };

const MIB = 1024 * 1024;
let engine: BenchEngine | null = null;

async function handle(m: ChildRequest): Promise<ChildReply> {
  switch (m.type) {
    case 'load': {
      const started = performance.now();
      engine = await openEngine(m.engine, m.dir, m.mode, m.threads, { tables: m.tables, planCache: m.planCache });
      const ms = performance.now() - started;
      // The loader's garbage is not the tables' cost: collect it before reading RSS (the child runs --expose-gc).
      (globalThis as { gc?: () => void }).gc?.();
      const dataMiB = engine.dataBytes === null ? null : engine.dataBytes / MIB;
      return { type: 'loaded', ms, rssMiB: process.memoryUsage().rss / MIB, dataMiB, threads: engine.threads ?? null };
    }
    case 'run': {
      const started = performance.now();
      const signal = AbortSignal.timeout(m.timeoutMs);
      const out = await engine!.run(m.sql, m.collect, signal).catch((e: unknown) => {
        throw signal.aborted ? new Error(`cancelled after the ${m.timeoutMs / 1000} s timeout`) : e;
      });
      return { type: 'ran', ms: performance.now() - started, ...out };
    }
    case 'stats':
      return {
        type: 'stats',
        peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MIB,
        rssMiB: process.memoryUsage().rss / MIB,
      };
  }
}

process.on('message', (m: ChildRequest) => {
  handle(m).then(
    (reply) => process.send!(reply),
    (e: unknown) =>
      process.send!({ type: 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
  );
});
process.on('disconnect', () => {
  engine?.close();
  process.exit(0);
});
