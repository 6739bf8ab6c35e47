// Frame bounds at the edges: offsets past the partition, empty frames, GROUPS, RANGE over NULLs, DESC, decimals,
// calendar-month intervals, and frame exclusion.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Column, makeColumn } from '../../../../../engine/arrow/column.js';
import { frameBounds, frameRuns } from '../../../../../engine/exec/operators/window-frames.js';
import { sortPartitions } from '../../../../../engine/exec/operators/window-partitions.js';
import type { LiteralExpr } from '../../../../../engine/plan/expr/index.js';
import type { FrameBound, WindowFrame } from '../../../../../engine/plan/logical/window.js';
import { DATE, type DataType, decimal, INT32, INT64, INTERVAL } from '../../../../../engine/plan/types.js';

const ints = (values: (number | null)[], type: DataType = INT32): Column =>
  makeColumn(
    type,
    Int32Array.from(values, (v) => v ?? 0),
    Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
    values.length,
  );

const n = (v: number): LiteralExpr => ({ kind: 'literal', value: v, type: INT64 });
const b = (kind: FrameBound['kind'], offset: LiteralExpr | null = null): FrameBound => ({ kind, offset });
const frame = (
  units: WindowFrame['units'],
  start: FrameBound,
  end: FrameBound,
  exclude: WindowFrame['exclude'] = 'no_others',
): WindowFrame => ({
  units,
  start,
  end,
  exclude,
});

/** Each row's frame as the list of its rows' key values (in sort order), for one ORDER BY key. */
function frames(keys: Column, f: WindowFrame, ascending = true, partition: Column[] = []): string[] {
  const spec = { ascending, nullsFirst: !ascending };
  const parts = sortPartitions(keys.length, partition, [{ column: keys, spec }]);
  const bounds = frameBounds(f, parts, { column: keys, spec });
  const label = (p: number) => {
    const r = parts.order[p]!;
    return keys.valid?.[r] === 0 ? 'N' : String((keys.values as Int32Array)[r]);
  };
  return Array.from(parts.order, (_, p) =>
    frameRuns(f, bounds, parts, p)
      .flatMap(([s, e]) => Array.from({ length: e - s }, (_, i) => label(s + i)))
      .join(','),
  );
}

const cases: [name: string, got: () => string[], expected: string[]][] = [
  [
    'ROWS offsets past the partition clamp to it',
    () => frames(ints([1, 2, 3]), frame('rows', b('preceding', n(5)), b('following', n(9)))),
    ['1,2,3', '1,2,3', '1,2,3'],
  ],
  [
    'ROWS 3 PRECEDING AND 2 PRECEDING is empty at the start',
    () => frames(ints([1, 2, 3, 4, 5]), frame('rows', b('preceding', n(3)), b('preceding', n(2)))),
    ['', '', '1', '1,2', '2,3'],
  ],
  [
    'ROWS 2 FOLLOWING AND 1 FOLLOWING is always empty',
    () => frames(ints([1, 2, 3]), frame('rows', b('following', n(2)), b('following', n(1)))),
    ['', '', ''],
  ],
  [
    'ROWS 0 PRECEDING AND 0 FOLLOWING is the row itself',
    () => frames(ints([7, 7, 8]), frame('rows', b('preceding', n(0)), b('following', n(0)))),
    ['7', '7', '8'],
  ],
  [
    'GROUPS 1 PRECEDING AND CURRENT ROW spans the previous peer group',
    () => frames(ints([1, 1, 2, 3, 3]), frame('groups', b('preceding', n(1)), b('current_row'))),
    ['1,1', '1,1', '1,1,2', '2,3,3', '2,3,3'],
  ],
  [
    'GROUPS 1 FOLLOWING AND 5 FOLLOWING stops at the partition',
    () => frames(ints([1, 1, 2, 3]), frame('groups', b('following', n(1)), b('following', n(5)))),
    ['2,3', '2,3', '3', ''],
  ],
  [
    'RANGE 1 PRECEDING AND 1 FOLLOWING: NULLs (last) are their own peers',
    () => frames(ints([1, 2, 4, null, null]), frame('range', b('preceding', n(1)), b('following', n(1)))),
    ['1,2', '1,2', '4', 'N,N', 'N,N'],
  ],
  [
    'RANGE UNBOUNDED PRECEDING AND 1 PRECEDING over DESC keys with NULLs first',
    () => frames(ints([5, null, 3, 4]), frame('range', b('unbounded_preceding'), b('preceding', n(1))), false),
    ['N', 'N', 'N,5', 'N,5,4'],
  ],
  [
    'RANGE CURRENT ROW AND UNBOUNDED FOLLOWING keeps peers',
    () => frames(ints([2, 1, 2]), frame('range', b('current_row'), b('unbounded_following'))),
    ['1,2,2', '2,2', '2,2'],
  ],
  [
    'RANGE over decimal(5,2) keys with a decimal offset of 0.5',
    () =>
      frames(
        ints([100, 150, 151, 300], decimal(5, 2)),
        frame('range', b('preceding', { kind: 'literal', value: 5, type: decimal(2, 1) }), b('current_row')),
      ),
    ['100', '100,150', '150,151', '300'],
  ],
  [
    "RANGE INTERVAL '1 month' PRECEDING over dates clamps the day (2024-03-31 - 1 month = 2024-02-29)",
    () =>
      frames(
        // 2024-02-28, 2024-02-29, 2024-03-31 as days since 1970-01-01
        ints([19781, 19782, 19813], DATE),
        frame(
          'range',
          b('preceding', { kind: 'literal', value: { months: 1, days: 0, micros: 0 }, type: INTERVAL }),
          b('current_row'),
        ),
      ),
    ['19781', '19781,19782', '19782,19813'],
  ],
  [
    'partitions bound every frame',
    () =>
      frames(ints([1, 2, 3, 4]), frame('rows', b('unbounded_preceding'), b('unbounded_following')), true, [
        ints([0, 1, 0, 1]),
      ]),
    ['1,3', '1,3', '2,4', '2,4'],
  ],
  [
    'EXCLUDE CURRENT ROW',
    () => frames(ints([1, 2, 3]), frame('rows', b('preceding', n(1)), b('following', n(1)), 'current_row')),
    ['2', '1,3', '2'],
  ],
  [
    'EXCLUDE GROUP removes every peer',
    () => frames(ints([1, 1, 2]), frame('rows', b('unbounded_preceding'), b('unbounded_following'), 'group')),
    ['2', '2', '1,1'],
  ],
  [
    'EXCLUDE TIES keeps the current row',
    () => frames(ints([1, 1, 2]), frame('range', b('unbounded_preceding'), b('current_row'), 'ties')),
    ['1', '1', '1,1,2'],
  ],
];

for (const [name, got, expected] of cases) test(name, () => assert.deepEqual(got(), expected));
