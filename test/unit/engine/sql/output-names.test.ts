// Names of unaliased select items: an expression's text, cut like PostgreSQL's names at 63 bytes (a name is
// repeated in every row of a JSON answer, so a 10,000-character literal made each row 10 KB longer).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine, createMapCatalog } from '../../../../engine/index.js';
import { queryRows } from '../../../helpers/engines.js';

const engine = createEngine({ catalog: createMapCatalog(new Map()) });
const names = async (sql: string) => (await queryRows(engine, sql)).names;

describe('output names', () => {
  it('keeps a short expression text whole', async () => {
    assert.deepEqual(await names('SELECT 1 + 1, 1 + 1'), ['1 + 1', '1 + 1_1']);
  });

  it('cuts a long expression text at 63 bytes, at a character boundary, before making names unique', async () => {
    const x = 'x'.repeat(10_000);
    const [a, b] = await names(`SELECT rpad('a', 0, '${x}'), rpad('b', 0, '${x}')`);
    assert.equal(a, `rpad('a', 0, '${'x'.repeat(63 - 14)}`);
    assert.equal(b, `rpad('b', 0, '${'x'.repeat(63 - 14)}`);
    const [c] = await names(`SELECT length('${'é'.repeat(40)}')`);
    assert.equal(c, `length('${'é'.repeat(27)}`);
    assert.ok(Buffer.byteLength(c!) <= 63);
  });
});
