// The engine's writes and DDL over an in-memory writable catalog: what reaches `TableProvider.write` and
// `Catalog.writes`, failed writes never committed, cancelling, the plan cache after catalog changes, refusals.
// Messages are PostgreSQL 15's where PostgreSQL has the case (writes.slt holds the SQL-level records).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Batch,
  createEngine,
  createMapCatalog,
  type Engine,
  ExecError,
  type TableProvider,
  type WriteMode,
} from '../../../engine/index.js';
import { queryRows } from '../../helpers/engines.js';
import { MemoryWritableCatalog, MemoryWritableTable, readOnlyTable } from '../../helpers/writable-catalog.js';

const INT = { id: 'int32' } as const;

async function setUp(planCacheEntries = 64): Promise<{ catalog: MemoryWritableCatalog; engine: Engine }> {
  const catalog = new MemoryWritableCatalog();
  const engine = createEngine({ catalog, planCacheEntries });
  await queryRows(engine, 'CREATE SCHEMA c.s');
  await queryRows(engine, 'CREATE TABLE c.s.t (a int NOT NULL, b text)');
  return { catalog, engine };
}

const rows = async (engine: Engine, sql: string) => (await queryRows(engine, sql)).rows;

describe('INSERT', () => {
  it('answers one bigint row `count`, and the rows reach the table in its column order and types', async () => {
    const { catalog, engine } = await setUp();
    const result = await queryRows(engine, "INSERT INTO c.s.t (b, a) VALUES ('x', 1.5), (NULL, 2)");
    assert.deepEqual(result.names, ['count']);
    assert.deepEqual(result.types, [{ id: 'int64' }]);
    assert.deepEqual(result.rows, [['2']]);
    const table = catalog.writable('c.s.t');
    assert.deepEqual(table.modes, ['append']);
    assert.deepEqual(
      table.batches[0]!.schema.fields.map((f) => [f.name, f.type.id]),
      [
        ['a', 'int32'],
        ['b', 'utf8'],
      ],
    );
    assert.deepEqual(await rows(engine, 'SELECT a, b FROM c.s.t ORDER BY a'), [
      ['2', 'x'],
      ['2', null],
    ]);
  });

  it('a NOT NULL violation is thrown into the batches the provider pulls: nothing is committed', async () => {
    const { catalog, engine } = await setUp();
    await rows(engine, "INSERT INTO c.s.t VALUES (1, 'kept')");
    await assert.rejects(rows(engine, "INSERT INTO c.s.t (a, b) SELECT 2, 'x' UNION ALL SELECT NULL, 'y'"), {
      name: 'ExecError',
      message: 'null value in column "a" of relation "t" violates not-null constraint',
    });
    const table = catalog.writable('c.s.t');
    assert.equal(table.errors.length, 1);
    assert.ok(table.errors[0] instanceof ExecError);
    assert.deepEqual(await rows(engine, 'SELECT a, b FROM c.s.t'), [['1', 'kept']]);
  });

  it('a cast failing in the source is seen by the provider too (numeric overflow)', async () => {
    const { catalog, engine } = await setUp();
    await assert.rejects(rows(engine, 'INSERT INTO c.s.t (a) VALUES (1), (2147483648)'), {
      message: 'integer out of range',
    });
    assert.equal(catalog.writable('c.s.t').errors.length, 1);
    assert.equal(catalog.writable('c.s.t').rowCount, 0);
  });

  it('INSERT OVERWRITE writes with mode overwrite, replacing the rows', async () => {
    const { catalog, engine } = await setUp();
    await rows(engine, "INSERT INTO c.s.t VALUES (1, 'a'), (2, 'b')");
    assert.deepEqual(await rows(engine, 'INSERT OVERWRITE TABLE c.s.t SELECT a * 10, b FROM c.s.t WHERE a = 2'), [
      ['1'],
    ]);
    assert.deepEqual(catalog.writable('c.s.t').modes, ['append', 'overwrite']);
    assert.deepEqual(await rows(engine, 'SELECT a, b FROM c.s.t'), [['20', 'b']]);
  });

  it('cancelling stops the write: the provider sees the cancel and commits nothing', async () => {
    const { catalog, engine } = await setUp();
    for (let i = 0; i < 3; i++) await rows(engine, `INSERT INTO c.s.t VALUES (${i}, 'x')`);
    await rows(engine, 'CREATE TABLE c.s.copy (a int NOT NULL, b text)');
    const controller = new AbortController();
    const copy = catalog.writable('c.s.copy');
    const write = copy.write.bind(copy);
    // Cancel once the first batch has arrived (the source yields one batch per stored INSERT).
    copy.write = (batches: AsyncIterable<Batch>, mode: WriteMode, signal: AbortSignal) =>
      write(abortAfterFirst(batches, controller), mode, signal);
    const result = await engine.execute('INSERT INTO c.s.copy SELECT * FROM c.s.t', { signal: controller.signal });
    await assert.rejects(drain(result.batches), { name: 'CancelledError' });
    assert.equal(copy.errors.length, 1);
    assert.equal(copy.rowCount, 0);
  });

  it('reports the written table (lower case) and readOnly false, for the server to invalidate its caches', async () => {
    const { engine } = await setUp();
    const result = await engine.execute("INSERT INTO C.S.T VALUES (1, 'x')");
    assert.equal(result.readOnly, false);
    assert.deepEqual(result.tables, ['c.s.t']);
    await drain(result.batches);
    const ctas = await engine.execute('CREATE TABLE c.s.n AS SELECT a FROM c.s.t');
    assert.deepEqual(ctas.tables, ['c.s.n', 'c.s.t']);
    await drain(ctas.batches);
  });

  it('refuses a table without `write` as read-only, naming it', async () => {
    const catalog = createMapCatalog(
      new Map<string, TableProvider>([
        ['ro', readOnlyTable({ fields: [{ name: 'a', qualifier: null, type: INT, nullable: true }] })],
      ]),
    );
    const engine = createEngine({ catalog });
    await assert.rejects(rows(engine, 'INSERT INTO ro VALUES (1)'), {
      name: 'NotSupportedError',
      message: 'INSERT into "ro" is not supported: the table is read-only',
    });
    await assert.rejects(rows(engine, 'INSERT OVERWRITE ro SELECT 1'), { message: /INSERT OVERWRITE into "ro"/ });
  });
});

describe('DDL', () => {
  it('CREATE TABLE hands the catalog the definition: folded names, quoted ones kept, types, NOT NULL, partitions', async () => {
    const { catalog, engine } = await setUp();
    const sql =
      'CREATE TABLE C.s."MiXed" (Id bigint NOT NULL, "Ts" timestamptz, p numeric(10, 2)) PARTITIONED BY (bucket(8, id), Day("Ts"))';
    assert.deepEqual(await rows(engine, sql), [['CREATE TABLE']]);
    const table = catalog.writable('c.s.MiXed');
    assert.deepEqual(table.definition, {
      name: ['c', 's', 'MiXed'],
      schema: {
        fields: [
          { name: 'id', qualifier: null, type: { id: 'int64' }, nullable: false },
          { name: 'Ts', qualifier: null, type: { id: 'timestamp', tz: 'UTC' }, nullable: true },
          { name: 'p', qualifier: null, type: { id: 'decimal', precision: 10, scale: 2 }, nullable: true },
        ],
      },
      partitionBy: [
        { column: 'id', transform: 'bucket[8]' },
        { column: 'Ts', transform: 'day' },
      ],
    });
  });

  it('CREATE TABLE AS creates the table from the query, then appends; IF NOT EXISTS writes nothing', async () => {
    const { catalog, engine } = await setUp();
    await rows(engine, "INSERT INTO c.s.t VALUES (1, 'x'), (2, NULL)");
    assert.deepEqual(await rows(engine, 'CREATE TABLE c.s.n PARTITIONED BY (a) AS SELECT a, b, NULL AS z FROM c.s.t'), [
      ['2'],
    ]);
    const n = catalog.writable('c.s.n');
    assert.deepEqual(n.modes, ['append']);
    assert.deepEqual(n.definition?.partitionBy, [{ column: 'a', transform: 'identity' }]);
    assert.deepEqual(
      n.schema.fields.map((f) => [f.name, f.type.id, f.nullable]),
      [
        ['a', 'int32', true],
        ['b', 'utf8', true],
        ['z', 'utf8', true],
      ],
    );
    assert.deepEqual(await rows(engine, 'CREATE TABLE IF NOT EXISTS c.s.n AS SELECT 1, 2, 3'), [['0']]);
    assert.deepEqual(n.modes, ['append']);
  });

  it('CREATE TABLE AS into an existing table writes with error_if_not_empty (the provider refuses rows)', async () => {
    const { catalog, engine } = await setUp();
    assert.deepEqual(await rows(engine, "CREATE TABLE c.s.t AS SELECT 1.4, 'y'"), [['1']]);
    await assert.rejects(rows(engine, "CREATE TABLE c.s.t AS SELECT 1, 'y'"), /is not empty/);
    assert.deepEqual(catalog.writable('c.s.t').modes, ['error_if_not_empty', 'error_if_not_empty']);
    assert.deepEqual(await rows(engine, 'SELECT * FROM c.s.t'), [['1', 'y']]);
  });

  it('a CREATE TABLE AS whose write fails drops the table it created', async () => {
    const { catalog, engine } = await setUp();
    await assert.rejects(rows(engine, 'CREATE TABLE c.s.n AS SELECT 1 / (a - a) AS q FROM (VALUES (1)) v(a)'), {
      message: 'division by zero',
    });
    assert.equal(catalog.table('c.s.n'), undefined);
  });

  it('DROP TABLE and CREATE SCHEMA reach the catalog, with their IF [NOT] EXISTS flags', async () => {
    const { catalog, engine } = await setUp();
    assert.deepEqual(await rows(engine, 'DROP TABLE c.s.t'), [['DROP TABLE']]);
    assert.equal(catalog.table('c.s.t'), undefined);
    await assert.rejects(rows(engine, 'DROP TABLE c.s.t'), { message: 'table "c.s.t" does not exist' });
    assert.deepEqual(await rows(engine, 'DROP TABLE IF EXISTS c.s.t'), [['DROP TABLE']]);
    await assert.rejects(rows(engine, 'CREATE SCHEMA c.s'), { message: 'schema "c.s" already exists' });
    assert.deepEqual(await rows(engine, 'CREATE SCHEMA IF NOT EXISTS c.s'), [['CREATE SCHEMA']]);
    const result = await engine.execute('DROP TABLE IF EXISTS c.s.x');
    assert.deepEqual([result.readOnly, result.tables], [false, ['c.s.x']]);
  });

  it('a catalog without `writes` refuses DDL clearly', async () => {
    const engine = createEngine({ catalog: createMapCatalog(new Map()) });
    for (const [sql, what] of [
      ['CREATE SCHEMA c.s', 'CREATE SCHEMA'],
      ['CREATE TABLE c.s.t (a int)', 'CREATE TABLE'],
      ['CREATE TABLE c.s.t AS SELECT 1', 'CREATE TABLE AS'],
      ['DROP TABLE c.s.t', 'DROP TABLE'],
    ])
      await assert.rejects(rows(engine, sql), {
        name: 'NotSupportedError',
        message: `${what} is not supported: the catalog has no writable namespace`,
      });
  });

  it('EXPLAIN plans without running: nothing is created or written', async () => {
    const { catalog, engine } = await setUp();
    const plan = await rows(engine, 'EXPLAIN CREATE TABLE c.s.n AS SELECT 1 AS one');
    assert.deepEqual(plan, [
      ['CreateTableAs: c.s.n (one integer)'],
      ['  Projection: 1 AS one'],
      ['    Values: rows=1'],
    ]);
    assert.deepEqual(await rows(engine, 'EXPLAIN INSERT INTO c.s.t (a) SELECT 1'), [
      ['Insert: c.s.t mode=append not_null=[a]'],
      ['  Projection: 1 AS a, NULL AS b'],
      ['    Values: rows=1'],
    ]);
    assert.equal(catalog.table('c.s.n'), undefined);
    assert.equal(catalog.writable('c.s.t').modes.length, 0);
  });
});

describe('names and syntax errors', () => {
  it('a three-part name looks up `c.s.t`; two-part names keep falling back to the bare table', async () => {
    const table = (rows: number) => {
      const t = new MemoryWritableTable('x', { fields: [{ name: 'a', qualifier: null, type: INT, nullable: true }] });
      t.batches = [
        { schema: t.schema, columns: [{ type: INT, values: Int32Array.of(rows), valid: null, length: 1 }], length: 1 },
      ];
      return t;
    };
    const catalog = createMapCatalog(
      new Map<string, TableProvider>([
        ['c.s.t', table(3)],
        ['t', table(1)],
        ['s.t', table(2)],
      ]),
    );
    const engine = createEngine({ catalog });
    assert.deepEqual(await rows(engine, 'SELECT t.a FROM c.s.t'), [['3']]);
    assert.deepEqual(await rows(engine, 'SELECT a FROM s.t'), [['2']]);
    assert.deepEqual(await rows(engine, 'SELECT a FROM other.t'), [['1']]);
    await assert.rejects(rows(engine, 'SELECT a FROM c.other.t'), { message: /table "c.other.t" does not exist/ });
  });

  it('syntax errors in the source query point at the statement text, after EXPLAIN too', async () => {
    const { engine } = await setUp();
    for (const [sql, column] of [
      ['INSERT INTO c.s.t SELECT 1 +', 29],
      ['EXPLAIN INSERT OVERWRITE c.s.t (a) SELECT FROM WHERE', 48],
      ['CREATE TABLE c.s.n PARTITIONED BY (a) AS SELECT 1 AS a FROM WHERE', 66],
      ['INSERT INTO c.s.t (a,) VALUES (1)', 22],
      ['CREATE TABLE c.s.n (a int) PARTITIONED BY (bucket(4 a))', 53],
    ] as const)
      await assert.rejects(
        rows(engine, sql),
        { name: 'ParseError', message: new RegExp(`^syntax error at line 1, column ${column}:`) },
        sql,
      );
  });
});

describe('plan cache and writes', () => {
  it('a read after a write sees it (the cached SELECT plan reads the table again)', async () => {
    const { engine } = await setUp();
    assert.deepEqual(await rows(engine, 'SELECT count(*) FROM c.s.t'), [['0']]);
    await rows(engine, "INSERT INTO c.s.t VALUES (1, 'x')");
    assert.deepEqual(await rows(engine, 'SELECT count(*) FROM c.s.t'), [['1']]);
  });

  it('a cached plan is not served after the table it names is dropped or created', async () => {
    const { engine } = await setUp();
    const insert = "INSERT INTO c.s.t VALUES (1, 'x')";
    await rows(engine, insert);
    await rows(engine, 'DROP TABLE c.s.t');
    await assert.rejects(rows(engine, insert), { message: 'relation "c.s.t" does not exist' });
    await rows(engine, 'CREATE TABLE c.s.t (a int NOT NULL, b text, c date)');
    assert.deepEqual(await rows(engine, insert), [['1']]);
    assert.deepEqual(await rows(engine, 'SELECT * FROM c.s.t'), [['1', 'x', null]]);
    // CREATE TABLE AS re-plans once its table exists: the second run is the error_if_not_empty write.
    const ctas = 'CREATE TABLE c.s.n AS SELECT 1 AS x';
    assert.deepEqual(await rows(engine, ctas), [['1']]);
    await assert.rejects(rows(engine, ctas), /is not empty/);
  });

  it('a read-only context refuses every write, also when its plan is cached', async () => {
    const { engine } = await setUp();
    for (const sql of [
      "INSERT INTO c.s.t VALUES (1, 'x')",
      'INSERT OVERWRITE c.s.t SELECT 1, NULL',
      'CREATE TABLE c.s.n AS SELECT 1 AS x',
      'CREATE SCHEMA c.z',
      'DROP TABLE IF EXISTS c.s.zz',
    ]) {
      await rows(engine, sql);
      await assert.rejects(engine.execute(sql, { allowWrites: false }), { name: 'ForbiddenError' }, sql);
    }
  });
});

async function drain(batches: AsyncIterable<Batch>): Promise<void> {
  for await (const _ of batches);
}

async function* abortAfterFirst(batches: AsyncIterable<Batch>, controller: AbortController): AsyncIterable<Batch> {
  for await (const b of batches) {
    yield b;
    controller.abort();
  }
}
