// `runRefreshJob`: a refresh's load on the dataset loader thread: the refresh SQL over the source, into shared memory.
import {
  appendTable,
  type Batch,
  createEngine,
  createMapCatalog,
  createMemoryTable,
  type Engine,
  type Field,
  type MemoryTableData,
  materializeTable,
  type TableProvider,
  typeName,
} from '../engine/index.js';
import './providers/builtin.js';
import { buildProvider, type TableEntry } from './providers/registry.js';
import { isTimeType, literalOf, newerRowsSql, quoteIdent, RefreshError, selectedFields } from './refresh-sql.js';

/** One refresh's load as the loader thread runs it (plain data: it is posted there). */
export interface RefreshJob {
  /** The dataset's name: the table refresh SQL reads. */
  readonly name: string;
  /** The files-mode entry of the dataset, over the files to read. */
  readonly source: TableEntry;
  /** Refresh SQL; absent: every row and column. */
  readonly sql?: string;
  /** Only check `sql` against the source's schema; read no data. */
  readonly checkOnly?: boolean;
  /** The rows loaded so far: the rows read are appended to them (their schema must be the one `sql` selects). */
  readonly previous?: MemoryTableData;
  /** Append by time: with `previous`, read only rows whose value here is after the newest in `previous`. */
  readonly timeColumn?: string;
}

export interface RefreshOutput {
  /** The new table; null when `previous` is the answer (an append that found no new rows, or a check). */
  readonly data: MemoryTableData | null;
  /** Rows read from the source this time. */
  readonly loadedRows: number;
}

const NEVER = new AbortController().signal;

/**
 * Runs `job`: checks its SQL (`selectedFields`), then reads the rows it selects (newer than `previous`'s newest
 * with a time column) into shared memory, appended to `previous` when there is one. Without SQL or time filter the
 * source is scanned straight into shared slabs; otherwise the engine runs the SQL, a WHERE pruning the source's
 * row groups. Throws `RefreshError` when the SQL or the append cannot work; errors reading the source as they come.
 */
export async function runRefreshJob(job: RefreshJob): Promise<RefreshOutput> {
  const provider = await buildProvider(job.source);
  const engine = engineOver(job.name, provider);
  const sql = job.sql ?? `SELECT * FROM ${quoteIdent(job.name)}`;
  const fields = await selectedFields(engine, sql, job.name, provider.schema);
  if (job.checkOnly) return { data: null, loadedRows: 0 };
  const { previous } = job;
  if (previous !== undefined) sameColumns(previous.schema.fields, fields);
  const time = job.timeColumn === undefined ? undefined : timeField(fields, job.timeColumn);
  const filtered = previous !== undefined && time !== undefined ? await newerRows(sql, time, previous) : null;
  const batches: AsyncIterable<Batch> =
    job.sql === undefined && filtered === null
      ? provider.scan({ columns: fields.map((f) => f.name), filters: [], limit: null, shared: true }, NEVER)
      : (await engine.execute(filtered ?? sql)).batches;
  const added = await materializeTable({ fields }, batches);
  const loadedRows = rowCount(added);
  if (previous === undefined) return { data: added, loadedRows };
  return { data: loadedRows === 0 ? null : appendTable(previous, added), loadedRows };
}

/** Rows in `data`. */
export function rowCount(data: MemoryTableData): number {
  return data.chunks.reduce((n, c) => n + c.length, 0);
}

/** An engine whose one table is `provider`, named `name`: no plan cache, no helper threads (one statement each). */
function engineOver(name: string, provider: TableProvider): Engine {
  return createEngine({
    catalog: createMapCatalog(new Map([[name, provider]])),
    planCacheEntries: 0,
    parallel: { threads: 0 },
  });
}

/** Throws unless `now` has the columns (names and types, in order) `before` has: rows are appended only so. */
function sameColumns(before: readonly Field[], now: readonly Field[]): void {
  const text = (fs: readonly Field[]) => fs.map((f) => `${f.name} ${typeName(f.type)}`).join(', ');
  if (text(before) === text(now)) return;
  throw new RefreshError(
    `the columns changed since the last load (${text(before)}; now ${text(now)}): ` +
      'rows cannot be appended to the loaded ones; run a full refresh',
  );
}

/** The field of `fields` named `timeColumn` (case-insensitively failing an exact match); throws when none fits. */
function timeField(fields: readonly Field[], timeColumn: string): Field {
  const lower = timeColumn.toLowerCase();
  const field = fields.find((f) => f.name === timeColumn) ?? fields.find((f) => f.name.toLowerCase() === lower);
  if (field === undefined)
    throw new RefreshError(
      `time_column "${timeColumn}" is not among the columns loaded (${fields.map((f) => f.name).join(', ')}); ` +
        'refresh_sql must select it for append refreshes',
    );
  if (!isTimeType(field.type))
    throw new RefreshError(
      `time_column "${field.name}" is ${typeName(field.type)}: append refreshes need a number, date, timestamp or text column`,
    );
  return field;
}

/** `sql` reading only rows whose `time` is after the newest value of it in `previous` (all of them when empty). */
async function newerRows(sql: string, time: Field, previous: MemoryTableData): Promise<string> {
  if (rowCount(previous) === 0) return sql;
  const engine = engineOver('previous', createMemoryTable(previous));
  const result = await engine.execute(`SELECT max(${quoteIdent(time.name)}) FROM previous`);
  let newest: string | null = null;
  for await (const b of result.batches) if (b.length > 0) newest = literalOf(b.columns[0]!);
  return newerRowsSql(sql, time.name, newest);
}
