// `runQueryPeaks`: each TPC-H query in a fresh engine process, so its peak RSS is that query's alone (load
// included: little in files mode); what a memory bound such as "SF10 within 3 GiB" is checked against.
import { generateTpch } from '../data/tpch-gen.js';
import type { DataMode } from './bench-engines.js';
import type { EngineName } from './engine-names.js';
import { EngineProcess } from './engine-process.js';
import { loadQueries } from './run-tpch.js';

export interface QueryPeaksOptions {
  readonly sf: number;
  readonly seed: number;
  readonly mode: DataMode;
  readonly engines: readonly EngineName[];
  readonly threads: number;
  /** Timed runs after the first (untimed when > 0); the time reported is the median of these, or the first run. */
  readonly runs: number;
  readonly queries?: readonly string[];
  readonly timeoutS: number;
  /**
   * Run every query in one process per engine (the data loaded once: memory mode at large scales); a query's peak
   * is then the process's peak so far, so only a rise tells which query set it.
   */
  readonly oneProcess?: boolean;
  readonly log: (line: string) => void;
}

export interface QueryPeak {
  readonly query: string;
  readonly engine: EngineName;
  /** Median run time (ms), or null when the query failed or timed out. */
  readonly ms: number | null;
  readonly peakRssMiB: number;
  readonly rows: number | null;
  readonly error?: string;
}

/** Runs the queries one process each and engine after engine; logs one line per (query, engine). */
export async function runQueryPeaks(opts: QueryPeaksOptions): Promise<QueryPeak[]> {
  const data = await generateTpch({ sf: opts.sf, seed: opts.seed });
  const out: QueryPeak[] = [];
  if (opts.oneProcess) {
    for (const engine of opts.engines) out.push(...(await runInOneProcess(engine, data.dir, opts)));
    return out;
  }
  for (const [query, sql] of loadQueries(opts.queries)) {
    for (const engine of opts.engines) {
      const peak = await runOne(query, sql, engine, data.dir, opts);
      out.push(peak);
      logPeak(peak, opts.log);
    }
  }
  return out;
}

function logPeak(peak: QueryPeak, log: (line: string) => void): void {
  const time = peak.ms === null ? `failed: ${peak.error}` : `${(peak.ms / 1000).toFixed(2)} s`;
  log(`${peak.query} ${peak.engine.padEnd(6)} ${time.padEnd(10)} peak RSS ${peak.peakRssMiB.toFixed(0)} MiB`);
}

async function runInOneProcess(engine: EngineName, dir: string, opts: QueryPeaksOptions): Promise<QueryPeak[]> {
  const proc = new EngineProcess({ type: 'load', engine, dir, mode: opts.mode, threads: opts.threads });
  const loaded = await proc.start();
  const data = loaded.dataMiB === null ? '' : `, column data ${loaded.dataMiB.toFixed(0)} MiB`;
  opts.log(`${engine}: loaded in ${(loaded.ms / 1000).toFixed(1)} s, RSS ${loaded.rssMiB.toFixed(0)} MiB${data}`);
  const out: QueryPeak[] = [];
  const timeoutMs = opts.timeoutS * 1000;
  try {
    for (const [query, sql] of loadQueries(opts.queries)) {
      const times: number[] = [];
      let rows: number | null = null;
      let error: string | undefined;
      try {
        for (let run = 0; run <= opts.runs; run++) {
          const reply = await proc.request({ type: 'run', sql, collect: false, timeoutMs }, timeoutMs + 30_000);
          if (reply.type !== 'ran') throw new Error(`unexpected reply ${reply.type}`);
          rows = reply.rowCount;
          if (run > 0 || opts.runs === 0) times.push(reply.ms);
        }
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        if (!proc.running) await proc.start();
      }
      const stats = await proc.request({ type: 'stats' }, 10_000);
      const peakRssMiB = stats.type === 'stats' ? stats.peakRssMiB : 0;
      const peak = { query, engine, ms: error === undefined ? median(times) : null, peakRssMiB, rows, error };
      out.push(peak);
      logPeak(peak, opts.log);
    }
  } finally {
    await proc.stop().catch(() => {});
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function runOne(query: string, sql: string, engine: EngineName, dir: string, opts: QueryPeaksOptions) {
  const proc = new EngineProcess({ type: 'load', engine, dir, mode: opts.mode, threads: opts.threads });
  const timeoutMs = opts.timeoutS * 1000;
  const times: number[] = [];
  let rows: number | null = null;
  let error: string | undefined;
  try {
    await proc.start();
    for (let run = 0; run <= opts.runs && error === undefined; run++) {
      // The child cancels at timeoutMs; the parent kills it a little later if cancelling does not end it.
      const reply = await proc.request({ type: 'run', sql, collect: false, timeoutMs }, timeoutMs + 30_000);
      if (reply.type !== 'ran') throw new Error(`unexpected reply ${reply.type}`);
      rows = reply.rowCount;
      if (run > 0 || opts.runs === 0) times.push(reply.ms);
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  } finally {
    await proc.stop().catch(() => {});
  }
  const ms = error === undefined ? median(times) : null;
  return { query, engine, ms, peakRssMiB: proc.peakRssMiB, rows, ...(error === undefined ? {} : { error }) };
}
