// `ZoneMaps`: min/max statistics of an accelerated table's chunks and of the 4,096-row zones inside them, which
// let pushed filters skip data (`createMemoryTable` scans only the row ranges they may match).
import type { Column } from '../../arrow/column.js';
import type { ColumnStats } from '../../io/parquet/footer.js';
import { mayMatch } from '../../io/parquet/prune.js';
import { columnsOf, type Expr } from '../../plan/expr/index.js';
import { SORTED, ZONE_ROWS, type ZoneFacts, zoneFactsOfField } from './column-facts.js';
import type { MemoryTableData } from './memory-table.js';
import { boundMayMatch, narrowToBounds, type ZoneBound, zoneBounds } from './zone-bounds.js';

/**
 * Min/max of the numeric and date columns per zone of ZONE_ROWS rows (and so per chunk), from the loader's zone
 * facts or computed on first use (`zoneFacts`), so pushed filters skip chunks the way Parquet row groups are
 * pruned, and zones inside the chunks that remain (an accelerated table loaded in key order keeps its chunks' and
 * zones' ranges apart). A zone whose values are sorted is also narrowed to the rows a comparison with a literal can
 * match, by binary search (`zoneBounds`): a point lookup on a key column reads a few rows, not 4,096.
 */
export class ZoneMaps {
  /** Per column: per chunk, the chunk's stats and its zones' stats (undefined when the column has none). */
  readonly #stats = new Map<string, (ZoneStats | undefined)[]>();
  /** Per field index: per chunk, its zone facts (null when the column has none). */
  readonly #facts = new Map<number, readonly (ZoneFacts | null)[]>();
  constructor(
    readonly data: MemoryTableData,
    readonly index: ReadonlyMap<string, number>,
  ) {}

  mayMatch(filters: readonly Expr[], chunk: number): boolean {
    return this.#test(filters, columnNames(filters), chunk, -1);
  }

  /**
   * Row ranges of each chunk that `filters` may match. Zones are tested only in chunks that survive, and only
   * while they pay: once two chunks in a row kept every zone, later chunks are taken whole.
   */
  pruner(filters: readonly Expr[]): { ranges(chunk: number): [number, number][] } {
    let useless = 0;
    const names = columnNames(filters);
    const { bounds, complete } = zoneBounds(filters, (name) => {
      const at = this.index.get(name);
      return at === undefined ? undefined : this.data.schema.fields[at]!.type;
    });
    // Every filter is a bound: comparing zone min/max with numbers is the whole test (no stats map per zone).
    const zoneMayMatch = complete
      ? (chunk: number, zone: number) => this.#fits(bounds, chunk, zone)
      : (chunk: number, zone: number) => this.#test(filters, names, chunk, zone);
    return {
      ranges: (chunk) => {
        const n = this.data.chunks[chunk]!.length;
        if (filters.length === 0) return [[0, n]];
        if (!zoneMayMatch(chunk, -1)) return [];
        if (useless >= 2) return [[0, n]];
        if (n <= ZONE_ROWS) {
          const [from, to] = this.#narrow(bounds, chunk, 0, 0, n);
          return from < to ? [[from, to]] : [];
        }
        const runs: [number, number][] = [];
        for (let z = 0, start = 0; start < n; z++, start += ZONE_ROWS) {
          if (!zoneMayMatch(chunk, z)) continue;
          const [from, to] = this.#narrow(bounds, chunk, z, start, Math.min(n, start + ZONE_ROWS));
          if (from >= to) continue;
          const last = runs[runs.length - 1];
          if (last !== undefined && last[1] === from) last[1] = to;
          else runs.push([from, to]);
        }
        useless = runs.length === 1 && runs[0]![0] === 0 && runs[0]![1] === n ? useless + 1 : 0;
        return runs;
      },
    };
  }

  /** Rows [start, end) of zone `zone` of `chunk` narrowed by the bounds on columns sorted in that zone. */
  #narrow(bounds: readonly ZoneBound[], chunk: number, zone: number, start: number, end: number): [number, number] {
    if (bounds.length === 0) return [start, end];
    const usable = bounds.filter((b) => this.#column(b.name)?.[chunk]?.sorted[zone] === true);
    if (usable.length === 0) return [start, end];
    const values = (name: string) => this.data.chunks[chunk]!.columns[this.index.get(name)!]!.values as Float64Array;
    return narrowToBounds(usable, values, start, end);
  }

  /** Whether every bound may hold in chunk `chunk` (zone -1) or one zone of it, by the columns' min and max. */
  #fits(bounds: readonly ZoneBound[], chunk: number, zone: number): boolean {
    for (const b of bounds) {
      const s = this.#column(b.name)?.[chunk];
      if (s === undefined) continue;
      const lo = zone < 0 ? s.chunkLo : s.lo[zone]!;
      const hi = zone < 0 ? s.chunkHi : s.hi[zone]!;
      if (!boundMayMatch(b, lo, hi)) return false;
    }
    return true;
  }

  /** Whether `filters` may match chunk `chunk` (zone -1) or one zone of it. */
  #test(filters: readonly Expr[], names: readonly string[], chunk: number, zone: number): boolean {
    if (filters.length === 0) return true;
    const stats = new Map<string, ColumnStats>();
    for (const name of names) {
      const s = this.#column(name)?.[chunk];
      const z = s === undefined ? undefined : zone < 0 ? s.chunk : s.zones[zone];
      if (z) stats.set(name, z);
    }
    const n = this.data.chunks[chunk]!.length;
    const rows = zone < 0 ? n : Math.min(ZONE_ROWS, n - zone * ZONE_ROWS);
    return stats.size === 0 || mayMatch(filters, { index: chunk, numRows: rows, stats });
  }

  /** The zone facts of field `at` in each chunk: the loader's (`MemoryTableData.zones`), else computed once. */
  facts(at: number): readonly (ZoneFacts | null)[] {
    let out = this.#facts.get(at);
    if (out === undefined) {
      out = this.data.zones?.[at] ?? zoneFactsOfField(this.data.chunks, at);
      this.#facts.set(at, out);
    }
    return out;
  }

  #column(name: string) {
    if (!this.#stats.has(name)) {
      const at = this.index.get(name);
      const column = (chunk: number) => this.data.chunks[chunk]!.columns[at!]!;
      const stats = at === undefined ? [] : this.facts(at).map((f, i) => (f ? zoneStats(column(i), f) : undefined));
      this.#stats.set(name, stats);
    }
    return this.#stats.get(name);
  }
}

/** The distinct column names `filters` read. */
function columnNames(filters: readonly Expr[]): string[] {
  if (filters.length === 1) return namesOf(filters[0]!);
  return [...new Set(filters.flatMap(namesOf))];
}

// A cached plan hands the same filter expressions to every run of a statement: their names are found once.
const filterNames = new WeakMap<Expr, string[]>();
function namesOf(filter: Expr): string[] {
  let out = filterNames.get(filter);
  if (out === undefined) {
    out = [...new Set(columnsOf(filter).map((c) => c.name))];
    filterNames.set(filter, out);
  }
  return out;
}

/**
 * A chunk column's stats and its zones' stats (as Parquet statistics, for `mayMatch`), the same min and max as
 * stored numbers (`lo`/`hi` per zone, `chunkLo`/`chunkHi`; lo > hi when all are NULL), and which zones hold
 * sorted values (non-decreasing, no NULL).
 */
interface ZoneStats {
  readonly chunk: ColumnStats;
  readonly zones: readonly ColumnStats[];
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly chunkLo: number;
  readonly chunkHi: number;
  readonly sorted: readonly boolean[];
}

/** A chunk column's stats and its zones' stats, from its zone facts. */
function zoneStats(col: Column, facts: ZoneFacts): ZoneStats {
  const { lo, hi, nulls, order } = facts;
  const zones: ColumnStats[] = [];
  const sorted: boolean[] = [];
  let allNulls = 0;
  for (let z = 0; z < lo.length; z++) {
    allNulls += nulls[z]!;
    zones.push(asParquetStats(col, { lo: lo[z]!, hi: hi[z]!, nulls: nulls[z]! }));
    sorted.push(order[z]! >= SORTED);
  }
  const whole = { lo: Math.min(...lo), hi: Math.max(...hi), nulls: allNulls };
  return { chunk: asParquetStats(col, whole), zones, lo, hi, chunkLo: whole.lo, chunkHi: whole.hi, sorted };
}

/** A stored range in the form Parquet statistics take (decimals unscaled, dates as Dates), for `mayMatch`. */
function asParquetStats(col: Column, r: { lo: number; hi: number; nulls: number }): ColumnStats {
  const { lo, hi, nulls } = r;
  if (lo > hi) return { min: null, max: null, nullCount: nulls };
  if (col.type.id === 'decimal') {
    const scale = 10 ** (col.type as { scale: number }).scale;
    return { min: lo / scale, max: hi / scale, nullCount: nulls };
  }
  if (col.type.id === 'date')
    return { min: new Date(lo * 86_400_000), max: new Date(hi * 86_400_000), nullCount: nulls };
  return { min: lo, max: hi, nullCount: nulls };
}
