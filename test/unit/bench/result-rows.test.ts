// compareRows with ORDER BY keys: rows tied on the keys may come in any order among themselves, nothing else may;
// orderColumns finds the keys of a query's last ORDER BY among the output columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareRows, orderColumns, type ResultRows, type Rows } from '../../../bench/lib/result-rows.js';

const result = (rows: Rows): ResultRows => ({ names: ['name', 'price', 'day'], floats: [false, false, false], rows });
const expected = result([
  ['a', '9.00', '1996-01-01'],
  ['b', '5.00', '1996-01-02'],
  ['c', '5.00', '1996-01-02'],
  ['d', '4.00', '1996-01-03'],
]);
const swapped = result([
  ['a', '9.00', '1996-01-01'],
  ['c', '5.00', '1996-01-02'],
  ['b', '5.00', '1996-01-02'],
  ['d', '4.00', '1996-01-03'],
]);

test('compareRows: ties on the ORDER BY keys in another order are the same result', () => {
  assert.equal(compareRows(swapped, expected, [1, 2]), null);
  assert.match(compareRows(swapped, expected, true) ?? '', /^row 2: /);
  assert.equal(compareRows(swapped, expected, false), null);
});

test('compareRows: rows out of key order, or a changed row inside a tie, differ', () => {
  const outOfOrder = result([expected.rows[1]!, expected.rows[0]!, expected.rows[2]!, expected.rows[3]!]);
  assert.match(compareRows(outOfOrder, expected, [1, 2]) ?? '', /^row 1: /);
  const changed = result([
    expected.rows[0]!,
    ['c', '5.00', '1996-01-02'],
    ['x', '5.00', '1996-01-02'],
    expected.rows[3]!,
  ]);
  assert.match(compareRows(changed, expected, [1, 2]) ?? '', /^row 2: /);
  // Ties on the first key only are not ties when the second key orders them.
  const bySecond = result([
    ['a', '5.00', '1996-01-01'],
    ['b', '5.00', '1996-01-02'],
  ]);
  const reversed = result([bySecond.rows[1]!, bySecond.rows[0]!]);
  assert.match(compareRows(reversed, bySecond, [1, 2]) ?? '', /^row 1: /);
  assert.equal(compareRows(reversed, bySecond, [1]), null);
});

test('orderColumns: names, aliases, positions and directions of the last ORDER BY; null when not plain columns', () => {
  const names = ['c_name', 'o_orderdate', 'o_totalprice', 'sum(l_quantity)'];
  assert.deepEqual(orderColumns('select ... order by o_totalprice desc, o_orderdate limit 100;', names), [2, 1]);
  assert.deepEqual(orderColumns('select ... ORDER BY 3 DESC NULLS LAST, C_NAME', names), [2, 0]);
  assert.deepEqual(
    orderColumns('select x from (select * from t order by c_name) order by orders.o_orderdate', names),
    [1],
  );
  assert.equal(orderColumns('select ... order by o_totalprice * 2', names), null);
  assert.equal(orderColumns('select ... where x = 1', names), null);
});
