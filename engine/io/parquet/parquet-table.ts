// `createParquetTable`: a TableProvider over Parquet files that reads the files on every scan.
import type { ParquetFile } from 'parquet-wasm';
import type { ScanRequest, TableProvider } from '../../catalog.js';
import { ExecError, PlanError } from '../../errors.js';
import type { Expr } from '../../plan/expr/index.js';
import { type Field, type Schema, sameType } from '../../plan/types.js';
import { ObjectStoreAccessError } from '../object-store/object-store.js';
import { objectStoreFor } from '../object-store/object-store-for.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { fileSchema, openParquet } from './decode.js';
import { defaultDecodeThreads, sharedDecodePool } from './decode-pool.js';
import { fetchRowsOf, groupStarts } from './fetch-rows.js';
import { type FileFooter, type RowGroupInfo, readFooter } from './footer.js';
import { mayMatch } from './prune.js';
import { type RowGroupRead, scanRowGroups } from './scan-row-groups.js';

/** max − min + 1 over every row group's statistics for an integer or date column (null when any is missing). */
function rangeBound(footers: readonly FileFooter[], column: string, schema: Schema, rows: number): number | null {
  const type = schema.fields.find((f) => f.name === column)?.type.id;
  if (type !== 'int32' && type !== 'int64' && type !== 'date') return null;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const f of footers) {
    for (const rg of f.rowGroups) {
      const s = rg.stats.get(column);
      if (!s || s.min === undefined || s.max === undefined || s.min === null || s.max === null) return null;
      const min = asNumber(s.min);
      const max = asNumber(s.max);
      if (min === null || max === null) return null;
      lo = Math.min(lo, min);
      hi = Math.max(hi, max);
    }
  }
  return hi >= lo ? Math.min(rows, hi - lo + 1) : null;
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return Math.floor(v.getTime() / 86_400_000);
  return null;
}

export interface ParquetTableOptions {
  /** 0 decodes on the scanning thread; any other value uses this thread's shared decode pool. */
  readonly decodeThreads?: number;
  /** How to reach `s3://` paths (endpoint, region, credentials); carried to every decode thread. */
  readonly s3?: S3StoreConfig;
}

/** One version of one file, as the table opened it. */
interface OpenedFile {
  readonly footer: FileFooter;
  readonly file: ParquetFile;
  /** The etag: names the file's bytes for the decode threads' open-file cache. */
  readonly version: string;
  readonly size: number;
}

/**
 * Reads the footers and schemas of `paths` (all files must share one schema). Each scan heads the files first: a
 * file rewritten since (another etag or size) is opened again, so files mode serves the data there now; one whose
 * columns no longer match the table's fails the scan, as does a file gone (the file list itself is fixed).
 */
export async function createParquetTable(
  paths: readonly string[],
  options: ParquetTableOptions = {},
): Promise<TableProvider> {
  const decodeThreads = options.decodeThreads ?? defaultDecodeThreads();
  if (paths.length === 0) throw new PlanError('a Parquet table needs at least one file');
  const { s3 } = options;
  let opened = await Promise.all(paths.map((p) => openFile(p, s3)));
  const schemas = opened.map((o) => fileSchema(o.file));
  const fields: Field[] = schemas[0]!
    .filter((f) => f.type !== null)
    .map((f) => ({ name: f.name, qualifier: null, type: f.type!, nullable: f.nullable }));
  schemas.forEach((s, i) => {
    const mismatch = mismatchedColumn(s, fields);
    if (mismatch !== null) {
      throw new PlanError(`Parquet file ${paths[i]} does not match the schema of ${paths[0]} (column ${mismatch})`);
    }
  });
  const schema: Schema = { fields };

  const plan = (req: ScanRequest, files: readonly OpenedFile[]) =>
    files.map(({ file, version, footer }) => ({
      file,
      version,
      footer,
      groups: footer.rowGroups.filter((rg) => mayMatch(req.filters, rg)),
    }));

  return {
    schema,
    kind: 'parquet',
    statistics: () => {
      const footers = opened.map((o) => o.footer);
      const rowCount = footers.reduce((n, f) => n + f.numRows, 0);
      return { rowCount, distinctCount: (c) => rangeBound(footers, c, schema, rowCount) };
    },
    async explainScan(req) {
      const kept = plan(req, opened).reduce((n, p) => n + p.groups.length, 0);
      const total = opened.reduce((n, o) => n + o.footer.rowGroups.length, 0);
      return `files=${paths.length} row_groups=${kept}/${total}`;
    },
    async *scan(req, signal) {
      opened = await reopenChanged(paths, opened, fields, s3);
      const pool = decodeThreads === 0 ? null : sharedDecodePool();
      const reads = readsOf(plan(req, opened), req.limit, s3, req.dynamicFilters);
      const rowIds = req.rowIds === true;
      const out = projectedSchema(schema, req.columns);
      const withIds = rowIds ? { fields: [...out.fields, ROW_NUMBER_FIELD] } : out;
      yield* scanRowGroups(reads, withIds, pool, signal, req.shared === true, rowIds);
    },
    async fetchRows(columns, rowIds, signal) {
      const before = opened;
      opened = await reopenChanged(paths, opened, fields, s3);
      const moved = paths.find((_, i) => opened[i] !== before[i]);
      // Row numbers name rows of the files the scan read: another version has other rows under them.
      if (moved !== undefined) throw new ExecError(`Parquet file ${moved} changed while read: run the query again`);
      const pool = decodeThreads === 0 ? null : sharedDecodePool();
      const files = opened.map((o) => ({ ...o, s3 }));
      return fetchRowsOf(files, projectedSchema(schema, columns), rowIds, pool, signal);
    },
  };
}

async function openFile(path: string, s3: S3StoreConfig | undefined): Promise<OpenedFile> {
  const footer = await readFooter(path, s3);
  const meta = await objectStoreFor(path, s3).head(path);
  return { footer, file: await openParquet(path, s3), version: meta.etag, size: meta.size };
}

/**
 * The first of `fields` that `schema` lacks or types differently (with `nulls`, also one that allows nulls where
 * the field does not: plans bound to the field may rely on it), or null when it has them all.
 */
function mismatchedColumn(schema: ReturnType<typeof fileSchema>, fields: readonly Field[], nulls = false) {
  for (const f of fields) {
    const g = schema.find((x) => x.name === f.name);
    if (!g?.type || !sameType(g.type, f.type) || (nulls && g.nullable && !f.nullable)) return f.name;
  }
  return null;
}

/** The row groups to read, in file order; under a LIMIT only as many as hold that many rows. */
function readsOf(
  planned: readonly { file: ParquetFile; version: string; footer: FileFooter; groups: readonly RowGroupInfo[] }[],
  limit: number | null,
  s3: S3StoreConfig | undefined,
  dynamicFilters?: () => readonly Expr[],
): RowGroupRead[] {
  const out: RowGroupRead[] = [];
  let left = limit ?? Number.POSITIVE_INFINITY;
  let fileRow = 0;
  for (const { file, version, footer, groups } of planned) {
    const starts = groupStarts(footer);
    const firstRow = fileRow;
    fileRow += footer.numRows;
    for (const rg of groups) {
      if (left <= 0) return out;
      const rows = Math.min(left, rg.numRows);
      out.push({
        file,
        path: footer.path,
        version,
        s3,
        rowGroup: rg.index,
        numRows: rg.numRows,
        limit: limit === null ? null : rows,
        skip: dynamicFilters && (() => !mayMatch(dynamicFilters(), rg)),
        firstRow: firstRow + starts[rg.index]!,
      });
      left -= rows;
    }
  }
  return out;
}

/** The row numbers a scan appends when asked (`ScanRequest.rowIds`). */
const ROW_NUMBER_FIELD: Field = { name: '__row_number', qualifier: null, type: { id: 'float64' }, nullable: false };

function projectedSchema(schema: Schema, columns: readonly string[]): Schema {
  return { fields: columns.map((c) => schema.fields.find((f) => f.name === c)!) };
}

export type { FileFooter };

/**
 * `opened`, with every file whose etag or size changed since opened again (parquet-wasm traps, and leaves its
 * instance unusable, when a file it opened shrinks or disappears, so no scan reads through a stale footer). A file
 * gone, or rewritten with columns that no longer match the table's, fails the scan.
 */
async function reopenChanged(
  paths: readonly string[],
  opened: readonly OpenedFile[],
  fields: readonly Field[],
  s3: S3StoreConfig | undefined,
): Promise<OpenedFile[]> {
  return Promise.all(
    paths.map(async (p, i) => {
      const now = await objectStoreFor(p, s3)
        .head(p)
        .catch((e: unknown) => {
          // An unreachable store or refused credentials say so; anything else means the file is gone.
          if (e instanceof ObjectStoreAccessError) throw new ExecError(`Parquet file ${p}: ${e.message}`);
          return null;
        });
      if (now === null) throw new ExecError(`Parquet file ${p} no longer exists`);
      const before = opened[i]!;
      if (now.etag === before.version && now.size === before.size) return before;
      const again = await openFile(p, s3).catch((e: unknown) => {
        throw new ExecError(`Parquet file ${p} was rewritten and cannot be read: ${(e as Error).message}`);
      });
      const mismatch = mismatchedColumn(fileSchema(again.file), fields, true);
      if (mismatch !== null) {
        throw new ExecError(`Parquet file ${p} was rewritten with other columns (${mismatch}): restart to reload it`);
      }
      return again;
    }),
  );
}
