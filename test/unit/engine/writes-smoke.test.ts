import { it } from 'node:test';
import { createEngine } from '../../../engine/index.js';
import { queryRows } from '../../helpers/engines.js';
import { MemoryWritableCatalog } from '../../helpers/writable-catalog.js';

it('smoke', async () => {
  const catalog = new MemoryWritableCatalog();
  const engine = createEngine({ catalog, planCacheEntries: 0 });
  const run = async (sql: string) => {
    try {
      const r = await queryRows(engine, sql);
      console.log(sql, '=>', JSON.stringify(r.names), JSON.stringify(r.rows));
    } catch (e) {
      console.log(sql, '=> ERR', (e as Error).constructor.name, (e as Error).message);
    }
  };
  for (const sql of [
    'CREATE SCHEMA c.s',
    'CREATE SCHEMA c.s',
    'CREATE SCHEMA IF NOT EXISTS c.s',
    'CREATE TABLE c.s.t (a int NOT NULL, b bigint, d date, n numeric(5,2), s text, f boolean) PARTITIONED BY (day(d), bucket(4, a))',
    "INSERT INTO c.s.t (d, a) SELECT '2024-01-02', 1",
    'INSERT INTO c.s.t (a, n) VALUES (2.5, 1.005), (3, 2)',
    "INSERT INTO c.s.t VALUES (4, 5, '2024-01-03')",
    'SELECT * FROM c.s.t',
    'INSERT INTO c.s.t (a) SELECT true',
    'INSERT INTO c.s.t (a, a) VALUES (1, 2)',
    'INSERT INTO c.s.t (zz) VALUES (1)',
    'INSERT INTO c.s.t (a) VALUES (1, 2)',
    'INSERT INTO c.s.t (a, b) VALUES (1)',
    'INSERT INTO c.s.t (b) VALUES (1)',
    'INSERT INTO c.s.t (a, n) VALUES (1, 12345.6)',
    'INSERT INTO c.s.t (a) VALUES (3000000000)',
    "INSERT INTO c.s.t (a, d) SELECT 1, 'x'::text",
    'INSERT INTO c.s.t (a, s) SELECT 1, true',
    'INSERT INTO c.s.t (a, s) SELECT 1, 1.5::float8',
    'INSERT INTO c.s.t (a) SELECT 2.5::float8',
    'INSERT INTO c.s.t (a) SELECT 3.5::float8',
    'INSERT INTO c.s.t (a, b) SELECT 1, 2.5::numeric',
    'SELECT * FROM c.s.t',
    'INSERT OVERWRITE c.s.t SELECT a + 10, b FROM c.s.t WHERE a < 3',
    'SELECT * FROM c.s.t',
    'EXPLAIN INSERT INTO c.s.t (a, b) SELECT a, b FROM c.s.t WHERE a > 1',
    'CREATE TABLE c.s.u AS SELECT 1 AS a, \'x\' AS b, NULL AS c, 1.5 AS d',
    'SELECT * FROM c.s.u',
    'CREATE TABLE c.s.u AS SELECT 1 AS a, \'x\' AS b, NULL AS c, 1.5 AS d',
    'CREATE TABLE IF NOT EXISTS c.s.u AS SELECT 1 AS a',
    'EXPLAIN CREATE TABLE c.s.v PARTITIONED BY (a) AS SELECT 1 AS a',
    'DROP TABLE c.s.u',
    'DROP TABLE c.s.u',
    'DROP TABLE IF EXISTS c.s.u',
    'UPDATE c.s.t SET a = 1',
    'DELETE FROM c.s.t',
    'ALTER TABLE c.s.t ADD COLUMN z int',
    'TRUNCATE c.s.t',
    'DROP SCHEMA c.s',
    'INSERT INTO c.s.t VALUES (1) ON CONFLICT DO NOTHING',
    'INSERT INTO c.s.t VALUES (1) RETURNING a',
    'REPLACE INTO c.s.t VALUES (1)',
    'MERGE INTO c.s.t USING c.s.t s ON true WHEN MATCHED THEN DELETE',
    'CREATE TABLE c.s.w (a int) PARTITIONED BY (foo(a))',
    'CREATE TABLE c.s.w (a int) PARTITIONED BY (bucket(a))',
    'CREATE TABLE c.s.w (a int) PARTITIONED BY (day(a))',
    'CREATE TABLE c.s.w (a int) PARTITIONED BY (zz)',
    'CREATE TABLE c.s.w (a numeric)',
    'INSERT INTO c.s.t SELECT 1 UNION ALL SELECT 2',
    'INSERT INTO c.s.t (a) VALUES (1',
    'INSERT INTO c.s.t (a) SELEC 1',
  ])
    await run(sql);
});
