// The saved benny summaries (bench/results/micro/<suite>.json) as one Markdown table: time per operation.
import { formatTable } from './table.js';

/** What benny's `save({ format: 'json', details: false })` writes. */
export interface MicroSummary {
  readonly name: string;
  readonly date: string;
  readonly results: readonly { readonly name: string; readonly ops: number; readonly margin: number }[];
}

export const isMicroSummary = (x: unknown): x is MicroSummary =>
  typeof x === 'object' && x !== null && !('kind' in x) && Array.isArray((x as MicroSummary).results);

export function microReport(suites: readonly MicroSummary[]): string {
  const rows = suites.flatMap((s) =>
    s.results.map((r) => {
      const ms = 1000 / r.ops;
      return [s.name, r.name, ms < 10 ? ms.toFixed(2) : ms.toFixed(0), `±${r.margin.toFixed(0)}%`];
    }),
  );
  const dates = [...new Set(suites.map((s) => s.date.slice(0, 10)))].join(', ');
  return [
    `benny, TPC-H SF0.1 (lineitem ~600 k rows), floe's tables in memory unless the case reads Parquet; run ${dates}`,
    '',
    formatTable(['Suite', 'Case', 'ms per run', 'margin'], rows),
  ].join('\n');
}
