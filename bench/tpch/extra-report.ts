// The tables of the engines run beside floe and DuckDB (`--engines floe,duckdb,polars,alasql`): each one's time per
// query against floe's, whether it answered as DuckDB did, and what it could not run.
import { geomean } from '../lib/stats.js';
import { formatTable } from '../lib/table.js';
import type { ExtraEngineName } from './engine-names.js';
import { type ExtraOutcome, medianOf, ms, type QueryBenchResults, times } from './tpch-results.js';

/** `fails` or `timeout` for an error text (the child's cancellation or the parent's kill). */
export function failureKind(error: string): 'fails' | 'timeout' {
  return /timeout|no answer within/i.test(error) ? 'timeout' : 'fails';
}

/** Per extra engine: what it ran, how often it agreed with DuckDB, and floe ÷ engine over the queries both ran. */
export interface ExtraSummary {
  readonly engine: ExtraEngineName;
  readonly ran: number;
  readonly variants: number;
  readonly identical: number;
  readonly failed: number;
  readonly timedOut: number;
  /** Queries both floe and the engine ran, and how many of them floe ran faster. */
  readonly both: number;
  readonly floeFaster: number;
  readonly geomeanFloeRatio: number | null;
}

export function summarizeExtra(r: QueryBenchResults, engine: ExtraEngineName): ExtraSummary {
  const outs = r.queries.flatMap((q) => {
    const o = q.extra?.[engine];
    return o ? [{ floe: medianOf(q.floe), o, own: medianOf(o) }] : [];
  });
  const errors = outs.flatMap(({ o }) => ('error' in o ? [failureKind(o.error)] : []));
  const both = outs.filter(({ floe, own }) => floe !== null && own !== null).map(({ floe, own }) => floe! / own!);
  return {
    engine,
    ran: outs.filter(({ own }) => own !== null).length,
    variants: outs.filter(({ o }) => o.variant).length,
    identical: outs.filter(({ o }) => o.identical === true).length,
    failed: errors.filter((k) => k === 'fails').length,
    timedOut: errors.filter((k) => k === 'timeout').length,
    both: both.length,
    floeFaster: both.filter((x) => x < 1).length,
    geomeanFloeRatio: both.length > 0 ? geomean(both) : null,
  };
}

/** The extra engines' table and summary lines as Markdown; empty when the run had none. */
export function extraReport(r: QueryBenchResults): string {
  const engines = r.config.extraEngines ?? [];
  if (engines.length === 0) return '';
  const header = ['Query', 'floe ms'];
  for (const e of engines) header.push(`${e} ms`, `floe ÷ ${e}`, `${e} = DuckDB`);
  const rows = r.queries.map((q) => {
    const floe = medianOf(q.floe);
    const cells = [q.id, floe === null ? 'failed' : ms(floe)];
    for (const e of engines) cells.push(...engineCells(floe, q.extra?.[e]));
    return cells;
  });
  const lines = [formatTable(header, rows), '', '`v`: ran its dialect variant (bench/tpch/queries/<engine>/).'];
  for (const e of engines) lines.push(`- ${summaryLine(summarizeExtra(r, e), r)}`);
  const notes = engines.flatMap((e) => extraNotes(r, e));
  if (notes.length > 0) lines.push('', ...notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

function engineCells(floe: number | null, o: ExtraOutcome | undefined): string[] {
  if (!o) return ['—', '—', '—'];
  if ('error' in o) return [failureKind(o.error), '—', '—'];
  const mark = o.variant ? ' v' : '';
  const same = o.identical === null ? '—' : o.identical ? 'yes' : '**NO**';
  return [`${ms(o.medianMs)}${mark}`, times(floe === null ? null : floe / o.medianMs), same];
}

function summaryLine(s: ExtraSummary, r: QueryBenchResults): string {
  const f = r.engines[s.engine];
  const facts = f
    ? `; ${f.threads ?? '?'} thread(s), load ${(f.loadMs / 1000).toFixed(1)} s, peak RSS ${f.peakRssMiB.toFixed(0)} MiB`
    : '';
  return (
    `${s.engine}: ran ${s.ran} of ${r.queries.length} (${s.variants} with a dialect variant), ${s.failed} failed, ` +
    `${s.timedOut} timed out; same result as DuckDB on ${s.identical} of ${s.ran}; floe faster on ${s.floeFaster} ` +
    `of the ${s.both} both ran, geometric mean floe ÷ ${s.engine} ${times(s.geomeanFloeRatio)}${facts}.`
  );
}

/** One line per query the engine failed, timed out on, or answered differently from DuckDB. */
export function extraNotes(r: QueryBenchResults, engine: ExtraEngineName): string[] {
  return r.queries.flatMap((q) => {
    const o = q.extra?.[engine];
    if (!o) return [];
    if ('error' in o) return [`${engine} ${q.id} ${failureKind(o.error)}: ${o.error.split('\n')[0]}`];
    return o.mismatch ? [`${engine} ${q.id} differs from DuckDB: ${o.mismatch.split('\n')[0]}`] : [];
  });
}
