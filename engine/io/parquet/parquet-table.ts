// `createParquetTable`: a TableProvider over Parquet files that reads the files on every scan.
import { stat } from 'node:fs/promises';
import type { Batch } from '../../arrow/batch.js';
import type { ScanRequest, TableProvider } from '../../catalog.js';
import { CancelledError, ExecError, PlanError } from '../../errors.js';
import { type Field, type Schema, sameType } from '../../plan/types.js';
import { decodeRowGroup, fileSchema, openParquet } from './decode.js';
import { type FileFooter, readFooter } from './footer.js';
import { mayMatch } from './prune.js';

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

/** Reads the footers and schemas of `paths` (all files must share one schema). */
export async function createParquetTable(paths: readonly string[]): Promise<TableProvider> {
  if (paths.length === 0) throw new PlanError('a Parquet table needs at least one file');
  const footers = await Promise.all(paths.map(readFooter));
  const sizes = await Promise.all(paths.map(async (p) => (await stat(p)).size));
  const files = await Promise.all(paths.map(openParquet));
  const schemas = files.map(fileSchema);
  const fields: Field[] = schemas[0]!
    .filter((f) => f.type !== null)
    .map((f) => ({ name: f.name, qualifier: null, type: f.type!, nullable: f.nullable }));
  schemas.forEach((s, i) => {
    for (const f of fields) {
      const g = s.find((x) => x.name === f.name);
      if (!g?.type || !sameType(g.type, f.type)) {
        throw new PlanError(`Parquet file ${paths[i]} does not match the schema of ${paths[0]} (column ${f.name})`);
      }
    }
  });
  const schema: Schema = { fields };
  const rowCount = footers.reduce((n, f) => n + f.numRows, 0);

  const plan = (req: ScanRequest) =>
    footers.map((footer, i) => ({
      file: files[i]!,
      footer,
      groups: footer.rowGroups.filter((rg) => mayMatch(req.filters, rg)),
    }));

  return {
    schema,
    kind: 'parquet',
    statistics: () => ({ rowCount, distinctCount: (c) => rangeBound(footers, c, schema, rowCount) }),
    async explainScan(req) {
      const kept = plan(req).reduce((n, p) => n + p.groups.length, 0);
      const total = footers.reduce((n, f) => n + f.rowGroups.length, 0);
      return `files=${paths.length} row_groups=${kept}/${total}`;
    },
    async *scan(req, signal) {
      await checkUnchanged(paths, sizes);
      let left = req.limit ?? Number.POSITIVE_INFINITY;
      for (const { file, groups } of plan(req)) {
        for (const rg of groups) {
          if (left <= 0) return;
          if (signal.aborted) throw new CancelledError();
          const rows = Number.isFinite(left) ? Math.min(left, rg.numRows) : null;
          for (const b of await readGroup(file, rg.index, rows ?? rg.numRows, req.columns, schema, rows)) {
            yield b;
            left -= b.length;
          }
        }
      }
    },
  };
}

async function readGroup(
  file: Awaited<ReturnType<typeof openParquet>>,
  index: number,
  numRows: number,
  columns: readonly string[],
  schema: Schema,
  limit: number | null,
): Promise<Batch[]> {
  const out = projectedSchema(schema, columns);
  // COUNT(*) and friends read no column: the footer's row count is enough.
  if (columns.length === 0) return [{ schema: out, columns: [], length: numRows }];
  const parts = await decodeRowGroup(file, index, columns, limit);
  return parts.map((p) => ({ schema: out, columns: p.columns, length: p.length }));
}

function projectedSchema(schema: Schema, columns: readonly string[]): Schema {
  return { fields: columns.map((c) => schema.fields.find((f) => f.name === c)!) };
}

export type { FileFooter };

/**
 * parquet-wasm traps (and leaves its instance unusable) when a file it opened shrinks or disappears, so
 * every scan first checks that the files are still there with the size they had when the table opened.
 */
async function checkUnchanged(paths: readonly string[], sizes: readonly number[]): Promise<void> {
  await Promise.all(
    paths.map(async (p, i) => {
      const now = await stat(p).catch(() => null);
      if (now === null) throw new ExecError(`Parquet file ${p} no longer exists`);
      if (now.size !== sizes[i])
        throw new ExecError(`Parquet file ${p} changed since floe opened it (restart to reload)`);
    }),
  );
}
