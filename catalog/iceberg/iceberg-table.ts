// `createIcebergTable`: an Iceberg table at one snapshot as a TableProvider: files pruned by manifest facts, then Parquet.
import {
  type Batch,
  CancelledError,
  createParquetTable,
  type EngineError,
  type EngineErrorKind,
  ExecError,
  ForbiddenError,
  InternalError,
  NotSupportedError,
  ParseError,
  PlanError,
  type ScanRequest,
  type Schema,
  type TableProvider,
  type TableStatistics,
  typeName,
  type WriteMode,
} from '../../engine/index.js';
import { deleteDataFiles, writeDataFiles } from './data-file-writer.js';
import { pruneFiles } from './prune-files.js';
import { floeSchema } from './schema.js';
import type { DataFile, PartitionSpec } from './spec.js';
import { DEFAULT_TARGET_FILE_BYTES, type IcebergTableEntry } from './table-entry.js';
import { callWrite } from './write-channel.js';

/** Parquet tables over recently scanned sets of kept files (a repeated query reuses their opened footers). */
const PARQUET_TABLES_KEPT = 8;

/**
 * The provider of `entry`: columns as `floeSchema` reads the Iceberg schema; a scan keeps the files whose bounds,
 * null counts and partition values may match the pushed filters (no footer read), then reads them as the `parquet`
 * kind does, columns by name. `write` writes data files and asks the main thread to commit them.
 */
export function createIcebergTable(entry: IcebergTableEntry): TableProvider {
  const { schema } = floeSchema(entry.schema);
  const files = entry.snapshotId === null ? [] : entry.files;
  const tables = new Map<string, Promise<TableProvider>>();
  const kept = (req: ScanRequest) => pruneFiles(files, entry.schema, entry.specs, req.filters);
  const parquetOver = (keep: readonly DataFile[]): Promise<TableProvider> => {
    const key = keep.map((f) => f.path).join('\n');
    let table = tables.get(key);
    if (table === undefined) {
      if (tables.size >= PARQUET_TABLES_KEPT) tables.delete(tables.keys().next().value!);
      table = createParquetTable(
        keep.map((f) => f.path),
        entry.s3 === undefined ? {} : { s3: entry.s3 },
      );
      table.catch(() => tables.delete(key));
      tables.set(key, table);
    }
    return table;
  };
  return {
    schema,
    kind: 'iceberg',
    statistics: () => statisticsOf(files, entry),
    async explainScan(req) {
      const keep = kept(req);
      const head = `files=${keep.length}/${files.length}`;
      if (keep.length === 0) return head;
      const detail = await (await parquetOver(keep)).explainScan(req);
      return `${head} ${detail.replace(/^files=\d+\s*/, '')}`.trim();
    },
    async *scan(req, signal) {
      const keep = kept(req);
      if (keep.length === 0) return;
      const parquet = await parquetOver(keep);
      checkColumns(parquet.schema, schema, req.columns, entry.name);
      yield* parquet.scan(req, signal);
    },
    write: (batches, mode, signal) => writeTable(entry, batches, mode, signal),
  };
}

/** The data files' columns must be the table's, by name and type, for every column the scan reads. */
function checkColumns(files: Schema, table: Schema, columns: readonly string[], name: string): void {
  for (const c of columns) {
    const want = table.fields.find((f) => f.name === c)!;
    const got = files.fields.find((f) => f.name === c);
    if (got === undefined)
      throw new NotSupportedError(
        `Iceberg table ${name}: data files without column ${c} (schema evolution) are not supported yet`,
      );
    const same = got.type.id === want.type.id && typeName(got.type) === typeName(want.type);
    if (!same && !(got.type.id === 'timestamp' && want.type.id === 'timestamp'))
      throw new ExecError(
        `Iceberg table ${name}: column ${c} is ${typeName(got.type)} in its data files, ${typeName(want.type)} in its schema`,
      );
  }
}

function statisticsOf(files: readonly DataFile[], entry: IcebergTableEntry): TableStatistics {
  const rowCount = files.reduce((n, f) => n + f.recordCount, 0);
  return {
    rowCount,
    distinctCount(column) {
      const field = entry.schema.fields.find((f) => f.name === column);
      if (field === undefined || !['int', 'long', 'date'].includes(field.type as string) || files.length === 0)
        return null;
      let lo: number | null = null;
      let hi: number | null = null;
      for (const f of files) {
        const a = f.lowerBounds?.[field.id];
        const b = f.upperBounds?.[field.id];
        if (a === undefined || b === undefined) return null;
        lo = lo === null ? Number(a) : Math.min(lo, Number(a));
        hi = hi === null ? Number(b) : Math.max(hi, Number(b));
      }
      return lo === null || hi === null ? null : Math.min(rowCount, hi - lo + 1);
    },
  };
}

async function writeTable(
  entry: IcebergTableEntry,
  batches: AsyncIterable<Batch>,
  mode: WriteMode,
  signal: AbortSignal,
): Promise<number> {
  if (!entry.writable) {
    const where = entry.catalog === null ? 'it is read through a dataset' : `catalog ${entry.catalog} is read-only`;
    throw new ForbiddenError(`cannot write to Iceberg table ${entry.name}: ${where} (writes need access: read_write)`);
  }
  const spec: PartitionSpec = entry.specs.find((s) => s['spec-id'] === entry.specId) ?? {
    'spec-id': entry.specId,
    fields: [],
  };
  const options = {
    location: entry.location,
    schema: entry.schema,
    spec,
    targetFileBytes: entry.targetFileBytes > 0 ? entry.targetFileBytes : DEFAULT_TARGET_FILE_BYTES,
    s3: entry.s3,
  };
  const files = await writeDataFiles(batches, options, signal);
  const paths = files.map((f) => f.path);
  // An overwrite replaces the files this statement read the table as; rows appended meanwhile stay.
  const replaces = mode === 'overwrite' ? entry.files.map((f) => f.path) : undefined;
  const call = { op: 'commit', table: entry.name, mode, files, ...(replaces ? { replaces } : {}) } as const;
  const reply = await callWrite(call).catch(async (e: unknown) => {
    await deleteDataFiles(paths, entry.s3);
    throw e;
  });
  if (!reply.ok) {
    await deleteDataFiles(paths, entry.s3);
    throw errorOf(reply.kind, reply.message);
  }
  return files.reduce((n, f) => n + f.recordCount, 0);
}

const ERRORS: Record<EngineErrorKind, new (message: string) => EngineError> = {
  parse: ParseError,
  plan: PlanError,
  exec: ExecError,
  not_supported: NotSupportedError,
  forbidden: ForbiddenError,
  cancelled: CancelledError,
  internal: InternalError,
};

/** The engine error of `kind` carrying `message` (a refusal from the main thread, raised again here). */
export function errorOf(kind: EngineErrorKind, message: string): EngineError {
  return new ERRORS[kind](message);
}
