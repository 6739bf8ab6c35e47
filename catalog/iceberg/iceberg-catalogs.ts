// `IcebergCatalogs`: the main thread's Iceberg catalogs: tables found at start, DDL and commits from the workers.
import {
  EngineError,
  type EngineErrorKind,
  type ObjectStore,
  objectStoreFor,
  type S3StoreConfig,
} from '../../engine/index.js';
import type { TableEntry } from '../providers/registry.js';
import { commitFiles, createTable } from './commit.js';
import { TableExistsError, TableNotEmptyError } from './errors.js';
import { liveDataFiles } from './live-files.js';
import { partitionFieldsOf } from './partition-fields.js';
import { icebergSchema } from './schema.js';
import type { DataFile, TableMetadata } from './spec.js';
import { DEFAULT_TARGET_FILE_BYTES, type IcebergTableEntry } from './table-entry.js';
import { createNamespace, discover, dropTable, readCurrent } from './warehouse.js';
import type { WriteCall, WriteReply } from './write-protocol.js';

/** A catalog of the manifest (the server's `CatalogConfig` fits it). */
export interface IcebergCatalogSpec {
  readonly name: string;
  /** `file:///abs/wh` or `s3://bucket/wh`, no trailing slash. */
  readonly warehouse: string;
  readonly writable: boolean;
  readonly s3?: S3StoreConfig;
  readonly targetFileBytes?: number;
}

/** What a catalog change publishes: the server applies it as one catalog version and returns its number. */
export type PublishTable = (change: { put: TableEntry } | { drop: string }) => number;

interface Table {
  entry: IcebergTableEntry;
  metadata: TableMetadata;
}

interface Served {
  readonly spec: IcebergCatalogSpec;
  readonly store: ObjectStore;
  readonly schemas: Set<string>;
  /** By lower-case `schema.table`. */
  readonly tables: Map<string, Table>;
  /** Why the warehouse could not be read at start (the catalog then serves what it could). */
  problem: string | null;
}

class UserError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The catalogs of the manifest. `load` reads every warehouse once (a warehouse or table that cannot be read is
 * logged and left out: it never stops the start). `handle` runs a worker's DDL or commit: one at a time per
 * table, committed to the warehouse first, then published (`publish`) so queries submitted after the reply see it.
 */
export class IcebergCatalogs {
  readonly #catalogs = new Map<string, Served>();
  readonly #queues = new Map<string, Promise<unknown>>();
  #publish: PublishTable = () => {
    throw new Error('the catalog is not serving yet');
  };
  /** Called with a table's location after each commit to it (datasets reading it refresh). */
  onCommitted: (location: string) => void = () => {};

  constructor(
    specs: readonly IcebergCatalogSpec[],
    private readonly log: (line: string) => void = () => {},
  ) {
    for (const spec of specs) {
      const store = objectStoreFor(spec.warehouse, spec.s3);
      this.#catalogs.set(spec.name.toLowerCase(), {
        spec,
        store,
        schemas: new Set(),
        tables: new Map(),
        problem: null,
      });
    }
  }

  /** Reads every warehouse: the entries of their tables, for the first catalog version. */
  async load(): Promise<IcebergTableEntry[]> {
    const out: IcebergTableEntry[] = [];
    for (const served of this.#catalogs.values()) {
      const { spec, store } = served;
      try {
        const found = await discover(store, spec.warehouse);
        for (const s of found.schemas) served.schemas.add(s);
        for (const t of found.tables) {
          try {
            const current = await readCurrent(store, t.location);
            if (current === null) continue;
            const files = await liveDataFiles(store, current.metadata);
            const table = this.#table(served, t.schema, t.table, current.metadataLocation, current.metadata, files);
            out.push(table.entry);
          } catch (e) {
            this.log(
              `floe: catalog ${spec.name}: table ${t.schema}.${t.table} cannot be read: ${(e as Error).message}`,
            );
          }
        }
        this.log(`floe: catalog ${spec.name}: ${served.tables.size} table(s) in ${spec.warehouse}`);
      } catch (e) {
        served.problem = (e as Error).message;
        this.log(`floe: catalog ${spec.name}: cannot read ${spec.warehouse}: ${served.problem}`);
      }
    }
    return out;
  }

  /** From now on, changes are published through `publish`. */
  serve(publish: PublishTable): void {
    this.#publish = publish;
  }

  /** The catalogs' names, in manifest order. */
  names(): string[] {
    return [...this.#catalogs.values()].map((c) => c.spec.name);
  }

  schemas(catalog: string): string[] | undefined {
    const c = this.#catalogs.get(catalog.toLowerCase());
    return c && [...c.schemas].sort();
  }

  tables(catalog: string, schema: string): string[] | undefined {
    const c = this.#catalogs.get(catalog.toLowerCase());
    if (c === undefined || !hasName(c.schemas, schema)) return undefined;
    return [...c.tables.values()]
      .filter((t) => t.entry.name.split('.')[1]!.toLowerCase() === schema.toLowerCase())
      .map((t) => t.entry.name.split('.')[2]!)
      .sort();
  }

  /** The table's current metadata and where it is; undefined when there is none. */
  loadTable(
    catalog: string,
    schema: string,
    table: string,
  ): { metadataLocation: string; metadata: TableMetadata; config: Record<string, string> } | undefined {
    const c = this.#catalogs.get(catalog.toLowerCase());
    const t = c?.tables.get(`${schema}.${table}`.toLowerCase());
    return t && { metadataLocation: t.entry.metadataLocation, metadata: t.metadata, config: clientConfig(c!.spec.s3) };
  }

  /** Runs one call from a worker. User mistakes answer `ok: false` with their engine error kind. */
  async handle(call: WriteCall): Promise<WriteReply> {
    try {
      switch (call.op) {
        case 'create_schema':
          return await this.#createSchema(call.name, call.ifNotExists);
        case 'create_table':
          return await this.#serial(call.name.join('.'), () => this.#createTable(call));
        case 'drop_table':
          return await this.#serial(call.name.join('.'), () => this.#dropTable(call.name, call.ifExists));
        case 'commit':
          return await this.#serial(call.table, () => this.#commit(call));
      }
    } catch (e) {
      if (e instanceof TableNotEmptyError && call.op === 'commit')
        return {
          ok: false,
          kind: 'exec',
          message: `table "${call.table}" already holds data: CREATE TABLE ... AS writes into an existing table only while it is empty (use INSERT INTO to append or INSERT OVERWRITE to replace)`,
        };
      if (e instanceof UserError || e instanceof EngineError) return { ok: false, kind: e.kind, message: e.message };
      throw e;
    }
  }

  async #createSchema(name: readonly string[], ifNotExists: boolean): Promise<WriteReply> {
    const [catalog, schema] = parts(name, 2, 'schema');
    const c = this.#writable(catalog);
    if (hasName(c.schemas, schema)) {
      if (ifNotExists) return { ok: true, version: this.#publishNothing() };
      throw new UserError('exec', `schema "${schema}" already exists`);
    }
    await createNamespace(c.store, c.spec.warehouse, schema);
    c.schemas.add(schema);
    return { ok: true, version: this.#publishNothing() };
  }

  async #createTable(call: Extract<WriteCall, { op: 'create_table' }>): Promise<WriteReply> {
    const [catalog, schema, name] = parts(call.name, 3, 'table');
    const c = this.#writable(catalog);
    if (!hasName(c.schemas, schema)) throw new UserError('plan', `schema "${schema}" does not exist`);
    if (c.tables.has(`${schema}.${name}`.toLowerCase())) {
      if (call.ifNotExists) return { ok: true, version: this.#publishNothing(), existed: true };
      throw new UserError('exec', `relation "${call.name.join('.')}" already exists`);
    }
    const iceSchema = icebergSchema(call.columns);
    const spec = partitionFieldsOf(iceSchema, call.partitionBy);
    const location = `${c.spec.warehouse}/${schema}/${name}`;
    const created = await createTable(c.store, location, iceSchema, spec, {}).catch((e: unknown) => {
      if (e instanceof TableExistsError)
        throw new UserError('exec', `relation "${call.name.join('.')}" already exists`);
      throw e;
    });
    const table = this.#table(c, schema, name, created.metadataLocation, created.metadata, []);
    const version = this.#publish({ put: table.entry });
    return { ok: true, version, entry: table.entry };
  }

  async #dropTable(name: readonly string[], ifExists: boolean): Promise<WriteReply> {
    const [catalog, schema, table] = parts(name, 3, 'table');
    const c = this.#writable(catalog);
    const t = c.tables.get(`${schema}.${table}`.toLowerCase());
    if (t === undefined) {
      if (ifExists) return { ok: true, version: this.#publishNothing() };
      throw new UserError('plan', `table "${name.join('.')}" does not exist`);
    }
    await dropTable(c.store, t.entry.location);
    c.tables.delete(`${schema}.${table}`.toLowerCase());
    return { ok: true, version: this.#publish({ drop: t.entry.name }) };
  }

  async #commit({ table: tableName, mode, files, replaces }: Extract<WriteCall, { op: 'commit' }>) {
    const [catalog, schema, name] = tableName.split('.') as [string, string, string];
    const c = this.#writable(catalog);
    const t = c.tables.get(`${schema}.${name}`.toLowerCase());
    if (t === undefined) throw new UserError('plan', `table "${tableName}" does not exist (it was dropped)`);
    const done = await commitFiles(c.store, t.entry.location, mode, files, replaces ? { replaces } : {});
    const table = this.#table(c, schema, name, done.metadataLocation, done.metadata, done.files);
    const version = this.#publish({ put: table.entry });
    this.onCommitted(t.entry.location);
    return { ok: true, version, entry: table.entry } as const;
  }

  /** Records the table and returns it with its entry (`catalog.schema.table`, as the warehouse spells them). */
  #table(
    c: Served,
    schema: string,
    name: string,
    metadataLocation: string,
    metadata: TableMetadata,
    files: readonly DataFile[],
  ): Table {
    c.schemas.add(schema);
    const entry = tableEntry(`${c.spec.name}.${schema}.${name}`, c.spec, metadataLocation, metadata, files);
    const table = { entry, metadata };
    c.tables.set(`${schema}.${name}`.toLowerCase(), table);
    return table;
  }

  #writable(catalog: string): Served {
    const c = this.#catalogs.get(catalog.toLowerCase());
    if (c === undefined) throw new UserError('plan', `catalog "${catalog}" does not exist`);
    if (!c.spec.writable)
      throw new UserError(
        'forbidden',
        `catalog "${c.spec.name}" is read-only (set access: read_write in the manifest to write)`,
      );
    return c;
  }

  /** A DDL that changed no table still answers a version: the current one. */
  #publishNothing(): number {
    return 0;
  }

  /** Runs `work` after every earlier call on the same table (commits, drops and creates of one table never overlap). */
  #serial<T>(table: string, work: () => Promise<T>): Promise<T> {
    const key = table.toLowerCase();
    const before = this.#queues.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => {});
    this.#queues.set(key, settled);
    settled.then(() => {
      if (this.#queues.get(key) === settled) this.#queues.delete(key);
    });
    return run;
  }
}

/** The entry a table publishes: its current snapshot's live files, schema and specs. */
export function tableEntry(
  name: string,
  spec: Pick<IcebergCatalogSpec, 'writable' | 's3' | 'targetFileBytes'> & { readonly name: string | null },
  metadataLocation: string,
  metadata: TableMetadata,
  files: readonly DataFile[],
): IcebergTableEntry {
  const schema = metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id']) ?? metadata.schemas[0]!;
  const current = metadata['current-snapshot-id'];
  return {
    name,
    kind: 'iceberg',
    catalog: spec.name,
    location: metadata.location,
    metadataLocation,
    schema,
    specs: metadata['partition-specs'],
    specId: metadata['default-spec-id'],
    snapshotId: current === undefined || current === null || current < 0 ? null : current,
    files,
    writable: spec.writable,
    ...(spec.s3 ? { s3: spec.s3 } : {}),
    targetFileBytes: spec.targetFileBytes ?? DEFAULT_TARGET_FILE_BYTES,
  };
}

/**
 * What a REST client needs to read an S3 table's files itself (Iceberg's `s3.*` / `client.region` keys): the endpoint
 * and region, path-style for a custom endpoint. Never the credentials: a client brings its own.
 */
function clientConfig(s3: S3StoreConfig | undefined): Record<string, string> {
  if (s3 === undefined) return {};
  return {
    'client.region': s3.region,
    ...(s3.endpoint === undefined ? {} : { 's3.endpoint': s3.endpoint, 's3.path-style-access': 'true' }),
  };
}

function parts(name: readonly string[], n: number, what: string): string[] {
  if (name.length !== n)
    throw new UserError(
      'plan',
      `${what} name "${name.join('.')}" must have ${n} parts (${n === 3 ? 'catalog.schema.table' : 'catalog.schema'})`,
    );
  return [...name];
}

function hasName(names: ReadonlySet<string>, name: string): boolean {
  const lower = name.toLowerCase();
  for (const n of names) if (n.toLowerCase() === lower) return true;
  return false;
}
