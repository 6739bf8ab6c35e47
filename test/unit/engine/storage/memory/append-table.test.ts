// `appendTable` keeps the old chunks' arrays as they are, extends their text dictionaries, and answers queries as a
// table loaded in one go does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  appendTable,
  type Batch,
  createEngine,
  createMapCatalog,
  createMemoryTable,
  type MemoryTableData,
  materializeTable,
  type Schema,
} from '../../../../../engine/index.js';
import { batchOf, column, INT32, schemaOf, UTF8 } from '../../../../helpers/batches.js';
import { queryRows } from '../../../../helpers/engines.js';

const SCHEMA = schemaOf([
  ['id', INT32],
  ['kind', UTF8],
]);

async function tableOf(schema: Schema, ...parts: [number[], (string | null)[]][]): Promise<MemoryTableData> {
  const batches = parts.map(([ids, kinds]) => batchOf(schema, [column(INT32, ids), column(UTF8, kinds)]));
  return materializeTable(
    schema,
    (async function* (): AsyncIterable<Batch> {
      yield* batches;
    })(),
  );
}

async function rows(data: MemoryTableData, sql: string): Promise<string[][]> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', createMemoryTable(data)]])) });
  return (await queryRows(engine, sql)).rows as string[][];
}

describe('appendTable', () => {
  it('shares the old chunks and extends their dictionary', async () => {
    const old = await tableOf(SCHEMA, [
      [1, 2, 3],
      ['a', 'b', null],
    ]);
    const added = await tableOf(SCHEMA, [
      [4, 5],
      ['c', 'a'],
    ]);
    const both = appendTable(old, added);
    assert.equal(both.chunks.length, 2);
    assert.equal(both.chunks[0], old.chunks[0]);
    assert.equal(both.chunks[1], added.chunks[0]);
    assert.equal(both.zones?.[0]?.[0], old.zones?.[0]?.[0]);
    // The old chunk's codes are the same array; the new value is coded after the old ones.
    const dict = both.dictionaries?.[1];
    assert.ok(dict);
    assert.equal(dict.codes[0], old.dictionaries?.[1]?.codes[0]);
    assert.deepEqual([...dict.codes[1]!], [3, 0]);
    assert.ok(dict.codes[1]!.buffer instanceof SharedArrayBuffer);
    assert.deepEqual(await rows(both, 'SELECT kind, count(*) FROM t GROUP BY kind ORDER BY kind'), [
      ['a', '2'],
      ['b', '1'],
      ['c', '1'],
      [null, '1'],
    ]);
    assert.deepEqual(await rows(both, "SELECT id FROM t WHERE kind = 'a' ORDER BY id"), [['1'], ['5']]);
    assert.deepEqual(await rows(both, 'SELECT id FROM t WHERE id > 3 ORDER BY id'), [['4'], ['5']]);
  });

  it('drops a dictionary the new values overflow', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `v${i}`);
    const old = await tableOf(SCHEMA, [
      [1, 2],
      ['v0', 'v1'],
    ]);
    const added = await tableOf(SCHEMA, [many.map((_, i) => i + 3), many]);
    const both = appendTable(old, added);
    assert.equal(both.dictionaries?.[1], null);
    assert.deepEqual(await rows(both, "SELECT count(*) FROM t WHERE kind = 'v1'"), [['2']]);
    assert.deepEqual(await rows(both, 'SELECT count(DISTINCT kind) FROM t'), [['300']]);
  });

  it('refuses rows of another shape, and appends nothing as nothing', async () => {
    const old = await tableOf(SCHEMA, [[1], ['a']]);
    const other = schemaOf([
      ['id', INT32],
      ['name', UTF8],
    ]);
    const wrong = await tableOf(other, [[2], ['b']]);
    assert.throws(() => appendTable(old, wrong), /cannot append rows of \(id integer, name text\) to a table of/);
    const empty = await tableOf(SCHEMA);
    assert.equal(appendTable(old, empty), old);
    assert.deepEqual(await rows(appendTable(empty, old), 'SELECT id, kind FROM t'), [['1', 'a']]);
  });
});
