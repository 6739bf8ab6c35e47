// any_value through a `GroupTable`: each group's first non-NULL value. Without NULLs the calls share one pass over a
// batch that finds each new group's first row (`BatchRows.firstRows`); with NULLs, or once a group is still without
// its value, each call scans the batch itself. Both must agree with a plain first-non-NULL per group, across batches
// that bring new groups, repeat old ones and pick rows of a join's gathered output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { cellText } from '../../../../../engine/arrow/format.js';
import { gatherColumns } from '../../../../../engine/arrow/gathered-column.js';
import { GroupTable } from '../../../../../engine/exec/operators/group-table.js';
import type { Expr } from '../../../../../engine/plan/expr/index.js';
import type { AggregateCall } from '../../../../../engine/plan/logical/index.js';
import { INT32, INT64 } from '../../../../../engine/plan/types.js';
import { makeRng } from '../../../../helpers/gen-data.js';

const arg = (name: string): Expr => ({ kind: 'column', qualifier: null, name, type: INT64 }) as Expr;
const call = (name: string): AggregateCall => ({
  fn: 'any_value',
  args: [arg(name)],
  distinct: false,
  filter: null,
  type: INT64,
  name,
});

test('any_value: the first non-NULL value per group, with and without NULLs, plain and gathered arguments', () => {
  const rng = makeRng(21);
  const table = new GroupTable([0], [INT32], [call('plain'), call('nulls'), call('gathered'), call('late')]);
  const expected = new Map<number, (number | null)[]>();
  // A join's build side the `gathered` argument picks rows from.
  const source = makeColumn(
    INT64,
    Float64Array.from({ length: 500 }, (_, i) => 7000 + i),
    null,
    500,
  );
  for (let b = 0; b < 6; b++) {
    const n = 300;
    // Keys 0..199 at first, a wider range later: every batch brings new groups and repeats old ones.
    const keys = Int32Array.from({ length: n }, () => Math.floor(rng() * (200 + 100 * b)));
    const plain = Float64Array.from({ length: n }, (_, i) => b * 1000 + i);
    const nullValid = Uint8Array.from({ length: n }, () => (rng() < 0.3 ? 0 : 1));
    const picks = Int32Array.from({ length: n }, () => Math.floor(rng() * 500));
    const gathered = gatherColumns([source], picks, n, false)[0]!;
    // `late`: all NULL in the first two batches, then no NULL: its groups so far have no value when NULLs stop.
    const late = makeColumn(
      INT64,
      Float64Array.from(plain, (x) => x + 100_000),
      b < 2 ? new Uint8Array(n) : null,
      n,
    );
    const columns: Column[] = [
      makeColumn(INT64, plain, null, n),
      makeColumn(INT64, plain, nullValid, n),
      gathered,
      late,
    ];
    table.update(
      [makeColumn(INT32, keys, null, n)],
      n,
      columns.map((values) => ({ values, extra: [], keep: null })),
    );
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      const row = expected.get(k) ?? [null, null, null, null];
      row[0] ??= plain[i]!;
      if (nullValid[i] === 1) row[1] ??= plain[i]!;
      row[2] ??= 7000 + picks[i]!;
      if (b >= 2) row[3] ??= plain[i]! + 100_000;
      expected.set(k, row);
    }
  }
  const out = table.finish();
  const keys = table.keys.column(0, INT32);
  assert.equal(table.size, expected.size);
  for (let g = 0; g < table.size; g++) {
    const want = expected.get(Number(cellText(keys, g)))!;
    const got = out.map((c) => cellText(c, g));
    assert.deepEqual(
      got,
      want.map((v) =>
        v === null ? cellText(makeColumn(INT64, new Float64Array(1), new Uint8Array(1), 1), 0) : String(v),
      ),
      `group ${cellText(keys, g)}`,
    );
  }
});
