// `openPolars`: nodejs-polars behind the TPC-H runner's BenchEngine; the only module that imports nodejs-polars.
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pl from 'nodejs-polars';
import { TPCH_TABLES } from '../data/tpch-gen.js';
import type { ResultRows } from '../lib/result-rows.js';
import type { BenchEngine, DataMode } from './bench-engines.js';

/**
 * A `pl.SQLContext` over the tables of `dir`: DataFrames read once with `readParquet` (`memory`) or `scanParquet`
 * LazyFrames over the files (`files`), money (DECIMAL(15,2)) cast to DOUBLE: polars 0.26 multiplies two scale-2
 * decimals into scale 2, so `l_extendedprice * (1 - l_discount)` is rounded to cents (Q3's revenue differs from the
 * exact answer), and DOUBLE is its faster path too. Queries run on polars' own thread pool (POLARS_MAX_THREADS, read when the
 * binary loads, else one thread per core); they cannot be cancelled, so the parent kills the process on a timeout.
 */
export function openPolars(dir: string, mode: DataMode): BenchEngine {
  const ctx = pl.SQLContext();
  for (const name of TPCH_TABLES) {
    const folder = join(dir, name);
    const money = pl.col(pl.Decimal(15, 2)).cast(pl.Float64);
    if (mode === 'memory') ctx.register(name, readTable(folder).withColumns(money));
    else ctx.register(name, pl.scanParquet(join(folder, '*.parquet')).withColumns(money));
  }
  return {
    dataBytes: null,
    threads: Number(process.env.POLARS_MAX_THREADS) || availableParallelism(),
    async run(sql, collect) {
      const lazy = ctx.execute(sql);
      // nodejs-polars 0.26 does not throw a planning error: it wraps it as the LazyFrame, whose collect() then
      // fails with "_ldf.collect is not a function". Rethrow the real one.
      const inner = (lazy as unknown as { _ldf: unknown })._ldf;
      if (inner instanceof Error) throw inner;
      const df = await lazy.collect();
      return collect ? { rowCount: df.height, rows: polarsRows(df) } : { rowCount: df.height };
    },
    close() {},
  };
}

/** Every Parquet file of a table folder as one DataFrame (readParquet takes one file, not a folder). */
function readTable(folder: string): pl.DataFrame {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.parquet'))
    .sort();
  return pl.concat(
    files.map((f) => pl.readParquet(join(folder, f))),
    { rechunk: true, how: 'vertical' },
  );
}

/** Cell text as DuckDB prints it: decimals and dates through polars' own text (JS conversion refuses decimals). */
export function polarsRows(df: pl.DataFrame): ResultRows {
  const columns = df.getColumns();
  const texts = columns.map((s) => {
    const v = s.dtype.variant;
    const values: unknown[] = v === 'Decimal' || v === 'Date' ? s.cast(pl.Utf8).toArray() : s.toArray();
    return values.map((x) => (x === null || x === undefined ? null : String(x)));
  });
  return {
    names: columns.map((s) => s.name),
    // Decimals compare as numbers too: polars' text of a decimal need not have DuckDB's scale.
    floats: columns.map((s) => ['Float64', 'Float32', 'Decimal'].includes(s.dtype.variant)),
    rows: Array.from({ length: df.height }, (_, r) => texts.map((col) => col[r]!)),
  };
}
