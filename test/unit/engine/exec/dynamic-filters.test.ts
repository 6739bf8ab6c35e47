// Where dynamic join filters go: `readsWholeTable` keeps a join from collecting the keys of a build side that reads
// every row of a table (a filter from them would drop only dangling probe keys).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readsWholeTable, scanRange } from '../../../../engine/exec/dynamic-filters.js';
import { KeySet } from '../../../../engine/exec/operators/key-set.js';
import type { Expr } from '../../../../engine/plan/expr/index.js';
import type { LogicalPlan, Scan } from '../../../../engine/plan/logical/index.js';
import type { Schema } from '../../../../engine/plan/types.js';

const schema: Schema = { fields: [{ name: 'k', qualifier: 'dim', type: { id: 'int32' }, nullable: true }] };
const k: Expr = { kind: 'column', qualifier: 'dim', name: 'k', type: { id: 'int32' } };
const positive: Expr = { kind: 'binary', op: '>', left: k, right: k, type: { id: 'bool' } };

function scan(filters: Expr[] = [], limit: number | null = null): Scan {
  return { kind: 'scan', table: 'dim', alias: 'dim', tableSchema: schema, columns: ['k'], filters, limit, schema };
}

describe('readsWholeTable', () => {
  it('holds for a bare scan, and one under plain column projections', () => {
    assert.equal(readsWholeTable(scan(), []), true);
    const project: LogicalPlan = { kind: 'project', input: scan(), exprs: [k], schema } as LogicalPlan;
    assert.equal(readsWholeTable(project, []), true);
  });

  it('does not hold once anything may drop build rows or keys are computed', () => {
    assert.equal(readsWholeTable(scan([positive]), []), false, 'a pushed-down filter');
    assert.equal(readsWholeTable(scan([], 10), []), false, 'a limit');
    const filter: LogicalPlan = { kind: 'filter', input: scan(), predicate: positive, schema } as LogicalPlan;
    assert.equal(readsWholeTable(filter, []), false, 'a filter node');
    const computed: LogicalPlan = { kind: 'project', input: scan(), exprs: [positive], schema } as LogicalPlan;
    assert.equal(readsWholeTable(computed, []), false, 'a computed key');
    const pending = [{ qualifier: 'dim', name: 'k', keys: new KeySet() }];
    assert.equal(readsWholeTable(scan(), pending), false, 'a dynamic filter from a join above');
  });
});

describe('scanRange', () => {
  const field = (name: string, id: 'int32' | 'int64' | 'date' | 'decimal' | 'float64') => ({
    name,
    qualifier: 't',
    type: id === 'decimal' ? ({ id, precision: 15, scale: 2 } as const) : ({ id } as const),
    nullable: true,
  });
  const fields = [
    field('a', 'int32'),
    field('d', 'date'),
    field('f', 'float64'),
    field('m', 'decimal'),
    { name: 's', qualifier: 't', type: { id: 'utf8' } as const, nullable: true },
  ];
  const table: Schema = { fields };
  const cmp = (name: string, op: string, value: number | string, literalFirst = false): Expr => {
    const f = fields.find((x) => x.name === name)!;
    const column: Expr = { kind: 'column', qualifier: 't', name, type: f.type };
    const literal: Expr = { kind: 'literal', value, type: f.type };
    const [left, right] = literalFirst ? [literal, column] : [column, literal];
    return { kind: 'binary', op, left, right, type: { id: 'bool' } } as Expr;
  };

  it('turns comparisons of one integer column with numbers into inclusive bounds', () => {
    assert.deepEqual(scanRange([cmp('d', '>', 9204)], table), { column: 1, lo: 9205, hi: Infinity });
    assert.deepEqual(scanRange([cmp('d', '>=', 10), cmp('d', '<', 20)], table), { column: 1, lo: 10, hi: 19 });
    assert.deepEqual(scanRange([cmp('a', '<=', 7), cmp('a', '>', 2)], table), { column: 0, lo: 3, hi: 7 });
    assert.deepEqual(scanRange([cmp('a', '=', 4)], table), { column: 0, lo: 4, hi: 4 });
    // `5 < a` is `a > 5`; a scaled decimal's stored value bounds it the same way.
    assert.deepEqual(scanRange([cmp('a', '<', 5, true)], table), { column: 0, lo: 6, hi: Infinity });
    assert.deepEqual(scanRange([cmp('m', '<', 2400)], table), { column: 3, lo: -Infinity, hi: 2399 });
  });

  it('bounds only the first such column, and leaves out what it cannot bound', () => {
    assert.deepEqual(scanRange([cmp('a', '>', 1), cmp('d', '<', 5), cmp('a', '<', 9)], table), {
      column: 0,
      lo: 2,
      hi: 8,
    });
    assert.equal(scanRange([cmp('f', '>', 1)], table), null, 'a double: NaN and fractions');
    assert.equal(scanRange([cmp('a', '<>', 1)], table), null, 'not equal');
    assert.equal(scanRange([cmp('a', '>', 1.5)], table), null, 'a fraction');
    assert.equal(scanRange([positive], table), null, 'two columns');
    assert.equal(scanRange([], table), null);
  });

  it('takes a text equality as the text asked for, when no integer bound came first', () => {
    assert.deepEqual(scanRange([cmp('s', '=', 'R')], table), { column: 4, lo: 0, hi: 0, text: 'R' });
    assert.deepEqual(scanRange([cmp('s', '=', 'R', true), cmp('a', '>', 1)], table), {
      column: 4,
      lo: 0,
      hi: 0,
      text: 'R',
    });
    assert.deepEqual(scanRange([cmp('a', '>', 1), cmp('s', '=', 'R')], table), { column: 0, lo: 2, hi: Infinity });
    assert.equal(scanRange([cmp('s', '<>', 'R')], table), null, 'not equal');
  });
});
