// An in-memory writable catalog for the engine's write and DDL tests: tables keep the batches `write` committed,
// record every write's mode and any error the batches threw, and never commit a failed write.
import {
  type Batch,
  CancelledError,
  type Catalog,
  type CatalogWrites,
  ExecError,
  PlanError,
  type ScanRequest,
  type Schema,
  type TableDefinition,
  type TableProvider,
  type WriteMode,
} from '../../engine/index.js';

export class MemoryWritableTable implements TableProvider {
  readonly kind = 'memory-writable';
  readonly schema: Schema;
  readonly name: string;
  readonly definition: TableDefinition | null;
  batches: Batch[] = [];
  /** The mode of each write that reached the table, committed or not. */
  readonly modes: WriteMode[] = [];
  /** The errors the batches iterator threw at the provider (a NOT NULL violation, a failed cast). */
  readonly errors: unknown[] = [];

  constructor(name: string, schema: Schema, definition: TableDefinition | null = null) {
    this.name = name;
    this.schema = schema;
    this.definition = definition;
  }

  get rowCount(): number {
    return this.batches.reduce((n, b) => n + b.length, 0);
  }

  statistics() {
    return { rowCount: this.rowCount };
  }

  async *scan(request: ScanRequest, signal: AbortSignal): AsyncIterable<Batch> {
    const fields = request.columns.map((c) => this.schema.fields.find((f) => f.name === c)!);
    for (const b of this.batches) {
      if (signal.aborted) throw new CancelledError();
      const columns = request.columns.map((c) => b.columns[this.schema.fields.findIndex((f) => f.name === c)]!);
      yield { schema: { fields }, columns, length: b.length };
    }
  }

  async explainScan(): Promise<string> {
    return `rows=${this.rowCount}`;
  }

  async write(batches: AsyncIterable<Batch>, mode: WriteMode, signal: AbortSignal): Promise<number> {
    this.modes.push(mode);
    const got: Batch[] = [];
    try {
      for await (const b of batches) {
        if (signal.aborted) throw new CancelledError();
        got.push(b);
      }
    } catch (e) {
      this.errors.push(e);
      throw e;
    }
    if (mode === 'error_if_not_empty' && this.rowCount > 0)
      throw new ExecError(`table "${this.name}" is not empty: CREATE TABLE AS writes only into an empty table`);
    this.batches = mode === 'overwrite' ? got : [...this.batches, ...got];
    return got.reduce((n, b) => n + b.length, 0);
  }
}

/** A read-only table (no `write`), for the refusal tests. */
export function readOnlyTable(schema: Schema): TableProvider {
  const t = new MemoryWritableTable('ro', schema);
  return {
    schema,
    kind: 'memory-read-only',
    statistics: () => t.statistics(),
    scan: (r, s) => t.scan(r, s),
    explainScan: () => t.explainScan(),
  };
}

/**
 * A catalog of `MemoryWritableTable`s with `writes`; schemas are `c.s` names, tables `c.s.t`. Over `base`, its
 * tables come first and `base`'s (read-only) tables are found too.
 */
export class MemoryWritableCatalog implements Catalog {
  readonly tables = new Map<string, TableProvider>();
  readonly schemas = new Set<string>();
  readonly writes: CatalogWrites;
  readonly #base: Catalog | null;

  constructor(base: Catalog | null = null) {
    this.#base = base;
    this.writes = {
      createSchema: async (name, ifNotExists) => {
        const key = name.join('.');
        if (this.schemas.has(key)) {
          if (ifNotExists) return;
          throw new PlanError(`schema "${key}" already exists`);
        }
        this.schemas.add(key);
      },
      createTable: async (definition, ifNotExists) => {
        const key = definition.name.join('.');
        if (this.tables.has(key)) {
          if (ifNotExists) return null;
          throw new PlanError(`relation "${key}" already exists`);
        }
        const schema = definition.name.slice(0, -1).join('.');
        if (!this.schemas.has(schema)) throw new PlanError(`schema "${schema}" does not exist`);
        const table = new MemoryWritableTable(key, definition.schema, definition);
        this.tables.set(key, table);
        return table;
      },
      dropTable: async (name, ifExists) => {
        const key = name.join('.');
        if (!this.tables.delete(key) && !ifExists) throw new PlanError(`table "${key}" does not exist`);
      },
    };
  }

  table(name: string): TableProvider | undefined {
    return this.tables.get(name) ?? this.tables.get(name.toLowerCase()) ?? this.#base?.table(name);
  }

  tableNames(): readonly string[] {
    return [...(this.#base?.tableNames() ?? []), ...[...this.tables.keys()].sort()];
  }

  /** The writable table of that name (a test's view of what was committed). */
  writable(name: string): MemoryWritableTable {
    const t = this.tables.get(name);
    if (!(t instanceof MemoryWritableTable)) throw new Error(`no writable table ${name}`);
    return t;
  }
}
