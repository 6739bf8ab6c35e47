// CSV files read by floe (files mode and accelerated) and by DuckDB's read_csv: the same types and the same rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { compareRows, duckText, floeRows, orderColumns, type ResultRows } from '../../bench/lib/result-rows.js';
import {
  createEngine,
  createMapCatalog,
  createMemoryTable,
  loadTextTable,
  type TableProvider,
  textReadOptions,
  typeName,
} from '../../engine/index.js';
import { type TextFixture, textFixture, textTable } from '../helpers/text-files.js';

const FILES = 3;
const ROWS_PER_FILE = 1500;
const CATS = ['alpha', 'beta', 'gamma', 'delta'];
const COLUMNS = ['id', 'qty', 'price', 'name', 'flag', 'day', 'ts', 'cat'];
const WORDS = ['plain', 'with, comma', 'say "hi"', 'two\nlines', 'semi;colon', 'tab\there', 'ünï', ''];

/** A seeded PRNG (mulberry32), so every run writes the same files. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function quote(text: string, delimiter: string): string {
  return /["\n\r]/.test(text) || text.includes(delimiter) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One file's rows: id, qty (some empty), price, name (quoted when it must be), flag, day, ts, cat. */
function csvText(file: number, rand: () => number, delimiter: string, header: boolean): string {
  const lines = header ? [COLUMNS.join(delimiter)] : [];
  for (let r = 0; r < ROWS_PER_FILE; r++) {
    const id = file * ROWS_PER_FILE + r + 1;
    const qty = rand() < 0.1 ? '' : String(Math.floor(rand() * 200) - 50);
    const price = rand() < 0.05 ? '' : (Math.floor(rand() * 1_000_000) / 100).toFixed(2);
    const name = `${WORDS[Math.floor(rand() * WORDS.length)]}${rand() < 0.5 ? id % 17 : ''}`;
    const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(rand() * 900) * 86_400_000).toISOString().slice(0, 10);
    const ts = `${day} ${String(Math.floor(rand() * 24)).padStart(2, '0')}:${String(Math.floor(rand() * 60)).padStart(2, '0')}:07`;
    const cells = [id, qty, price, quote(name, delimiter), rand() < 0.5, day, ts, CATS[id % CATS.length]];
    lines.push(cells.join(delimiter));
  }
  return `${lines.join('\n')}\n`;
}

const QUERIES: readonly [floe: string, duckdb?: string][] = [
  ['SELECT count(*), count(qty), count(price), count(name) FROM t'],
  ['SELECT sum(qty), sum(id), min(price), max(price), sum(price) FROM t'],
  ['SELECT cat, count(*), sum(qty), min(name), max(name) FROM t GROUP BY cat ORDER BY cat'],
  ["SELECT id, name FROM t WHERE name LIKE '%,%' OR strpos(name, chr(10)) > 0 ORDER BY id LIMIT 40"],
  ["SELECT id, name, qty FROM t WHERE name LIKE '%\"%' ORDER BY id LIMIT 40"],
  ['SELECT flag, count(*), sum(price) FROM t GROUP BY flag ORDER BY flag'],
  ['SELECT min(day), max(day), min(ts), max(ts) FROM t'],
  ["SELECT day, count(*), max(ts) FROM t WHERE day >= '2021-06-01' GROUP BY day ORDER BY day LIMIT 15"],
  ['SELECT id, qty, price, name, flag, day, ts, cat FROM t WHERE id % 97 = 3 ORDER BY id'],
  ['SELECT count(*) FROM t WHERE qty IS NULL OR price IS NULL'],
];

const DUCK_TYPES: Readonly<Record<string, string>> = {
  BIGINT: 'bigint',
  DOUBLE: 'double precision',
  VARCHAR: 'text',
  BOOLEAN: 'boolean',
  DATE: 'date',
  TIMESTAMP: 'timestamp',
};

let fx: TextFixture;
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
let instance: DuckDBInstance;

async function duckRows(sql: string): Promise<ResultRows> {
  const reader = await duck.runAndReadAll(sql);
  return {
    names: reader.columnNames(),
    floats: reader.columnTypes().map((t) => /DOUBLE|FLOAT/.test(t.toString())),
    rows: reader.getRows().map((row) => row.map(duckText)),
  };
}

async function floeQuery(table: TableProvider, sql: string): Promise<ResultRows> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });
  const result = await engine.execute(sql);
  return floeRows(result.schema, result.batches);
}

before(async () => {
  fx = await textFixture();
  instance = await DuckDBInstance.create(':memory:');
  duck = await instance.connect();
});
after(async () => {
  duck?.closeSync();
  instance?.closeSync();
  await fx?.remove();
});

/** Registers the comparison of every query over `table()` against DuckDB's view `t`. */
function compareAll(tables: () => Record<string, TableProvider>, rename: (sql: string) => string = (s) => s): void {
  for (const [sql, duckSql] of QUERIES) {
    it(sql.slice(0, 100), async () => {
      const expected = await duckRows(rename(duckSql ?? sql));
      for (const [mode, table] of Object.entries(tables())) {
        const actual = await floeQuery(table, rename(sql));
        const order = /\border by\b/i.test(sql) ? (orderColumns(sql, actual.names) ?? true) : false;
        assert.equal(compareRows(actual, expected, order), null, `${mode}: ${sql}`);
      }
    });
  }
}

describe('comma-separated files with a header', () => {
  const tables: Record<string, TableProvider> = {};
  before(async () => {
    const rand = prng(33);
    const paths: string[] = [];
    for (let f = 0; f < FILES; f++) paths.push(await fx.write(`part-${f}.csv`, csvText(f, rand, ',', true)));
    tables.files = await textTable(paths, 'csv');
    tables.accelerated = createMemoryTable(await loadTextTable(paths, textReadOptions('csv')));
    const list = paths.map((p) => `'${p}'`).join(', ');
    await duck.run(
      `CREATE VIEW t AS SELECT * FROM read_csv([${list}], header = true, delim = ',', quote = '"', escape = '"')`,
    );
  });
  after(() => duck.run('DROP VIEW t'));

  it('infers the types DuckDB infers', async () => {
    const described = await duckRows('SELECT column_name, column_type FROM (DESCRIBE t)');
    const expected = described.rows.map(([name, type]) => `${name} ${DUCK_TYPES[type as string] ?? type}`);
    assert.deepEqual(
      tables.files!.schema.fields.map((f) => `${f.name} ${typeName(f.type)}`),
      expected,
    );
  });
  compareAll(() => tables);
});

describe('semicolon-separated files without a header', () => {
  const tables: Record<string, TableProvider> = {};
  before(async () => {
    const rand = prng(7);
    const paths = [await fx.write('noheader.txt', csvText(0, rand, ';', false))];
    const options = { hasHeader: false, delimiter: ';' };
    tables.files = await textTable(paths, 'csv', options);
    tables.accelerated = createMemoryTable(await loadTextTable(paths, textReadOptions('csv', options)));
    // DuckDB names headerless columns column0..; floe (as DataFusion) column_1..: the view renames them.
    const select = COLUMNS.map((_, i) => `column${i} AS column_${i + 1}`).join(', ');
    await duck.run(
      `CREATE VIEW t AS SELECT ${select} FROM read_csv('${paths[0]}', header = false, delim = ';', quote = '"')`,
    );
  });
  after(() => duck.run('DROP VIEW t'));

  compareAll(
    () => tables,
    (sql) => COLUMNS.reduce((s, n, i) => s.replace(new RegExp(`\\b${n}\\b(?!')`, 'g'), `column_${i + 1}`), sql),
  );
});
