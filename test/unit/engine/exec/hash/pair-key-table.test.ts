// `PairKeyTable` against the generic `KeyTable`: the same ids for every insert and probe, NULLs never matching,
// negative values, and a build batch with a value past 2^21 moving the table to the generic form mid-way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeColumn } from '../../../../../engine/arrow/column.js';
import { KeyTable } from '../../../../../engine/exec/hash/key-table.js';
import { PairKeyTable } from '../../../../../engine/exec/hash/pair-key-table.js';
import { DATE, INT32 } from '../../../../../engine/plan/types.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const TYPES = [INT32, DATE];
const rng = makeRng(3);

function batch(n: number, wide: boolean) {
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const a = Int32Array.from({ length: n }, () => (wide && rng() < 0.05 ? int(2 ** 21, 2 ** 31 - 1) : int(-40, 40)));
  const b = Int32Array.from({ length: n }, () => (rng() < 0.5 ? int(-(2 ** 31), 2 ** 31 - 1) : int(-3, 3)));
  const valid = Uint8Array.from({ length: n }, () => (rng() < 0.05 ? 0 : 1));
  return [makeColumn(INT32, a, valid, n), makeColumn(DATE, b, null, n)];
}

for (const wideAt of [-1, 2]) {
  test(`PairKeyTable: the generic table's ids${wideAt < 0 ? '' : ', wide values from batch 2'}`, () => {
    const pair = new PairKeyTable(TYPES);
    const generic = new KeyTable(TYPES, false);
    for (let k = 0; k < 4; k++) {
      const cols = batch(500, k === wideAt);
      pair.reserve(100);
      assert.deepEqual([...pair.insert(cols, 500)], [...generic.insert(cols, 500)], `insert ${k}`);
      const probe = batch(400, true);
      assert.deepEqual([...pair.find(probe, 400)], [...generic.find(probe, 400)], `find ${k}`);
      assert.equal(pair.size, generic.size);
    }
    for (const c of [0, 1]) {
      assert.deepEqual(
        [...(pair.column(c, TYPES[c]!).values as Int32Array)],
        [...(generic.column(c, TYPES[c]!).values as Int32Array)],
      );
    }
  });
}
