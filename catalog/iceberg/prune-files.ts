// Data-file pruning from manifest facts alone: column bounds, null counts and partition values vs pushed filters.
import { type ColumnStats, mayMatch, type RowGroupInfo, type ScanRequest } from '../../engine/index.js';
import type { DataFile, IcebergSchema, IcebergValue, PartitionSpec } from './spec.js';
import { applyTransform, parseTransform, type Transform } from './transforms.js';

type Filter = ScanRequest['filters'][number];
type Range = { lo: IcebergValue | null; hi: IcebergValue | null };

const MICROS_PER_HOUR = 3_600_000_000n;
const MICROS_PER_DAY = 86_400_000_000n;
const MS_PER_DAY = 86_400_000;

/**
 * The files of `files` that may hold a row matching every filter: a file is skipped when its bounds (narrowed by
 * its identity, time and truncate partition values) or null counts refute a filter as row-group pruning does
 * (`mayMatch`), or when an equality on a bucketed column hashes to another bucket.
 */
export function pruneFiles(
  files: readonly DataFile[],
  schema: IcebergSchema,
  specs: readonly PartitionSpec[],
  filters: readonly Filter[],
): DataFile[] {
  if (filters.length === 0) return [...files];
  const bySpec = new Map(specs.map((s) => [s['spec-id'], s]));
  return files.filter((f) => {
    const spec = bySpec.get(f.specId);
    return (
      mayMatch(filters, fileInfo(f, schema, spec)) &&
      !refutedByBucket(filters, f, schema, spec) &&
      !refutedByNulls(filters, f, schema)
    );
  });
}

/** A data file as one "row group" of `mayMatch`: statistics by column name in its domain (see `ColumnStats`). */
export function fileInfo(file: DataFile, schema: IcebergSchema, spec: PartitionSpec | undefined): RowGroupInfo {
  const ranges = partitionRanges(file, schema, spec);
  const stats = new Map<string, ColumnStats>();
  for (const c of schema.fields) {
    if (typeof c.type !== 'string') continue;
    const part = ranges.get(c.id);
    const lo = tighter(c.type, file.lowerBounds?.[c.id] ?? null, part?.lo ?? null, 1);
    const hi = tighter(c.type, file.upperBounds?.[c.id] ?? null, part?.hi ?? null, -1);
    const nulls = file.nullValueCounts?.[c.id];
    stats.set(c.name, {
      min: lo === null ? undefined : statValue(c.type, lo),
      max: hi === null ? undefined : statValue(c.type, hi),
      nullCount: nulls === undefined ? null : nulls,
    });
  }
  return { index: 0, numRows: file.recordCount, stats };
}

/** Of two bounds, the one that says more: the larger lower bound (sign 1) or the smaller upper bound (-1). */
function tighter(type: string, a: IcebergValue | null, b: IcebergValue | null, sign: 1 | -1): IcebergValue | null {
  if (a === null) return b;
  if (b === null || type === 'boolean' || a instanceof Uint8Array) return a;
  // A string's partition range is an identity value: exact, so never looser than a bound.
  if (type === 'string') return b;
  return (b > a ? 1 : b < a ? -1 : 0) === sign ? b : a;
}

/** `ColumnStats`' domain: dates and timestamps as Dates (millisecond floor), decimals as doubles, others as is. */
function statValue(type: string, v: IcebergValue): unknown {
  if (type === 'date') return new Date((v as number) * MS_PER_DAY);
  if (type.startsWith('timestamp')) return new Date(Number(floorDiv(BigInt(v as bigint), 1000n)));
  const dec = /^decimal\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(type);
  if (dec) return Number(v as bigint) / 10 ** Number(dec[1]);
  if (type === 'boolean' || v instanceof Uint8Array) return undefined;
  return v;
}

/** By source field id: the value range a file's partition tuple implies for that column, in its domain. */
function partitionRanges(file: DataFile, schema: IcebergSchema, spec: PartitionSpec | undefined): Map<number, Range> {
  const out = new Map<number, Range>();
  spec?.fields.forEach((f, i) => {
    const v = file.partition[i];
    const source = schema.fields.find((c) => c.id === f['source-id'])?.type;
    if (v === null || v === undefined || typeof source !== 'string') return;
    const t = transformOf(f.transform);
    const r = t === null ? null : rangeOf(t, v, source);
    if (r !== null) out.set(f['source-id'], r);
  });
  return out;
}

function rangeOf(t: Transform, v: IcebergValue, source: string): Range | null {
  if (t.kind === 'identity') return { lo: v, hi: v };
  if (t.kind === 'truncate') {
    if (typeof v === 'number') return { lo: v, hi: v + t.width - 1 };
    return typeof v === 'bigint' ? { lo: v, hi: v + BigInt(t.width) - 1n } : null;
  }
  const n = v as number;
  // [first, next) day of the partition (hours are handled in microseconds below).
  const days: Record<string, [number, number] | undefined> = {
    day: [n, n + 1],
    month: [monthStart(n), monthStart(n + 1)],
    year: [monthStart(n * 12), monthStart((n + 1) * 12)],
  };
  const d = days[t.kind];
  if (source === 'date') return d === undefined ? null : { lo: d[0], hi: d[1] - 1 };
  if (source !== 'timestamp' && source !== 'timestamptz') return null;
  if (t.kind === 'hour') return { lo: BigInt(n) * MICROS_PER_HOUR, hi: BigInt(n + 1) * MICROS_PER_HOUR - 1n };
  return d === undefined ? null : { lo: BigInt(d[0]) * MICROS_PER_DAY, hi: BigInt(d[1]) * MICROS_PER_DAY - 1n };
}

/** A transform floe knows, or null (another engine's transform is no reason to fail a read: it just prunes nothing). */
function transformOf(text: string): Transform | null {
  try {
    return parseTransform(text);
  } catch {
    return null;
  }
}

function monthStart(months: number): number {
  const y = 1970 + Math.floor(months / 12);
  return Date.UTC(y, months - (y - 1970) * 12, 1) / MS_PER_DAY;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** Whether some `col = literal` (or IN list) filter hashes to another bucket than the file's, for every value. */
function refutedByBucket(
  filters: readonly Filter[],
  file: DataFile,
  schema: IcebergSchema,
  spec: PartitionSpec | undefined,
): boolean {
  if (spec === undefined) return false;
  return spec.fields.some((f, i) => {
    const t = transformOf(f.transform);
    const part = file.partition[i];
    if (t?.kind !== 'bucket' || part === null || part === undefined) return false;
    const col = schema.fields.find((c) => c.id === f['source-id']);
    if (col === undefined || typeof col.type !== 'string') return false;
    return filters.some((e) => {
      const lits = equalityLiterals(e, col.name);
      if (lits === null) return false;
      return lits.every((l) => {
        const v = literalValue(col.type as string, l);
        return v !== undefined && v !== null && applyTransform(t, col.type as string, v) !== part;
      });
    });
  });
}

/** Whether a comparison or IS NOT NULL filter names a column with only NULLs in the file (no row passes it). */
function refutedByNulls(filters: readonly Filter[], file: DataFile, schema: IcebergSchema): boolean {
  if (file.recordCount === 0) return false;
  const allNull = (name: string) => {
    const id = schema.fields.find((c) => c.name === name)?.id;
    return id !== undefined && file.nullValueCounts?.[id] === file.recordCount;
  };
  return filters.some((e) => {
    if (e.kind === 'unary' && e.op === 'is_not_null' && e.expr.kind === 'column') return allNull(e.expr.name);
    if (e.kind === 'in_list' && !e.negated && e.expr.kind === 'column') return allNull(e.expr.name);
    if (e.kind !== 'binary' || !['=', '<>', '<', '<=', '>', '>='].includes(e.op)) return false;
    if (e.left.kind === 'column' && e.right.kind === 'literal') return allNull(e.left.name);
    return e.right.kind === 'column' && e.left.kind === 'literal' && allNull(e.right.name);
  });
}

type Literal = Extract<Filter, { kind: 'literal' }>;

function equalityLiterals(e: Filter, column: string): Literal[] | null {
  if (e.kind === 'binary' && e.op === '=') {
    if (e.left.kind === 'column' && e.left.name === column && e.right.kind === 'literal') return [e.right];
    if (e.right.kind === 'column' && e.right.name === column && e.left.kind === 'literal') return [e.left];
  }
  if (e.kind === 'in_list' && !e.negated && e.expr.kind === 'column' && e.expr.name === column)
    return e.list.every((x) => x.kind === 'literal') ? (e.list as Literal[]) : null;
  return null;
}

/** A literal as a value of Iceberg type `type`, when its type is that column's (undefined otherwise: no pruning). */
function literalValue(type: string, l: Literal): IcebergValue | null | undefined {
  const v = l.value;
  if (v === null) return null;
  const id = l.type.id;
  if ((type === 'int' || type === 'long') && (id === 'int32' || id === 'int64')) return v as number | bigint;
  if (type === 'date' && id === 'date') return v as number;
  if (type.startsWith('timestamp') && id === 'timestamp') return v as number;
  if (type === 'string' && id === 'utf8') return v as string;
  const dec = /^decimal\(\s*\d+\s*,\s*(\d+)\s*\)$/.exec(type);
  if (dec && l.type.id === 'decimal' && l.type.scale === Number(dec[1])) return BigInt(v as number | bigint);
  return undefined;
}
