// Shared set-up of the benny micro-benchmarks: seeded TPC-H SF0.1 data, floe engines over it (in memory and
// over the files), and one benny suite per hot path whose summary is saved under bench/results/micro/.
import b from 'benny';
import type { Engine } from '../../engine/index.js';
import { generateTpch, type TpchData } from '../data/tpch-gen.js';
import { openFloeEngine } from '../tpch/bench-engines.js';
import { RESULTS_DIR } from './paths.js';

/** Small enough that every case runs in well under a second, large enough for the kernels to dominate. */
export const MICRO_SF = 0.1;

export interface MicroContext {
  readonly data: TpchData;
  /** Accelerated tables: the operators without Parquet decoding. */
  readonly memory: Engine;
  /** Parquet-backed tables: every query decodes what it reads. */
  readonly files: Engine;
}

let context: Promise<MicroContext> | null = null;

/** Built once per process, shared by every suite. */
export function microContext(): Promise<MicroContext> {
  context ??= (async () => {
    const data = await generateTpch({ sf: MICRO_SF, seed: 1 });
    return { data, memory: await openFloeEngine(data.dir, 'memory'), files: await openFloeEngine(data.dir, 'files') };
  })();
  return context;
}

/** Runs `sql` to its last batch; returns the row count (so the work cannot be skipped). */
export async function drain(engine: Engine, sql: string): Promise<number> {
  const result = await engine.execute(sql);
  let rows = 0;
  for await (const batch of result.batches) rows += batch.length;
  return rows;
}

/** Each case is timed for about 2 s, at least 5 samples. */
const CASE_OPTIONS = { minSamples: 5, maxTime: 2 };

/** One benny suite of async cases; prints each case as it completes and saves the summary as JSON. */
export async function microSuite(name: string, cases: Record<string, () => Promise<unknown>>): Promise<void> {
  await b.suite(
    name,
    b.configure({ minDisplayPrecision: 2 }),
    ...Object.entries(cases).map(([caseName, fn]) => b.add(caseName, fn, CASE_OPTIONS)),
    b.cycle(),
    b.complete(),
    b.save({ file: name, folder: `${RESULTS_DIR}/micro`, format: 'json', details: false }),
  );
}
