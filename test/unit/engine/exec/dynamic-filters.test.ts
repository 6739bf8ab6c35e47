// Where dynamic join filters go: `readsWholeTable` keeps a join from collecting the keys of a build side that reads
// every row of a table (a filter from them would drop only dangling probe keys).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readsWholeTable } from '../../../../engine/exec/dynamic-filters.js';
import { KeySet } from '../../../../engine/exec/operators/dynamic-filter.js';
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
