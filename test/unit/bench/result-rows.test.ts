// compareRows with ORDER BY keys: rows tied on the keys may come in any order among themselves, nothing else may;
// orderColumns finds the keys of a query's last ORDER BY among the output columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareRows, orderColumns, type ResultRows, type Rows, resultOrder } from '../../../bench/lib/result-rows.js';

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

// ClickBench's queries cut ordered rows with LIMIT / OFFSET: the rows tied on the keys at a cut may be any of the tie.
const counts = (rows: Rows): ResultRows => ({ names: ['UserID', 'c'], floats: [false, false], rows });
const cutExpected = counts([
  ['7', '50'],
  ['3', '40'],
  ['1', '12'],
  ['2', '12'],
]);

test('compareRows at a LIMIT: other rows of the tie at the cut are the same result, other keys are not', () => {
  const otherTied = counts([
    ['7', '50'],
    ['3', '40'],
    ['9', '12'],
    ['4', '12'],
  ]);
  assert.equal(compareRows(otherTied, cutExpected, [1], { limit: true, offset: false }), null);
  assert.match(compareRows(otherTied, cutExpected, [1]) ?? '', /^row 3: /);
  // Before the cut the whole row counts; at the cut the key value does.
  const wrongBefore = counts([['7', '50'], ['8', '40'], ...otherTied.rows.slice(2)]);
  assert.match(compareRows(wrongBefore, cutExpected, [1], { limit: true, offset: false }) ?? '', /^row 2: /);
  const wrongKey = counts([...otherTied.rows.slice(0, 3), ['4', '11']]);
  assert.match(compareRows(wrongKey, cutExpected, [1], { limit: true, offset: false }) ?? '', /^row [34]: .*11/);
});

test('compareRows at an OFFSET: the tie at the start is compared by its keys; without ORDER BY only the count', () => {
  const offset = counts([
    ['5', '12'],
    ['6', '12'],
    ['1', '10'],
  ]);
  const other = counts([['8', '12'], ['6', '12'], offset.rows[2]!]);
  assert.equal(compareRows(other, offset, [1], { limit: false, offset: true }), null);
  assert.match(compareRows(other, offset, [1]) ?? '', /^row 1: /);
  const anyRows = counts([
    ['x', '1'],
    ['y', '2'],
    ['z', '3'],
  ]);
  assert.equal(compareRows(anyRows, offset, [], { limit: true, offset: false }), null);
  assert.match(
    compareRows(counts(anyRows.rows.slice(1)), offset, [], { limit: true, offset: false }) ?? '',
    /^row count/,
  );
});

test('resultOrder: keys by quoted name, alias or select-list text; LIMIT and OFFSET; no ORDER BY under a LIMIT', () => {
  const q = (sql: string, names: string[]) => resultOrder(sql, names);
  assert.deepEqual(
    q('SELECT "UserID", COUNT(*) FROM hits GROUP BY "UserID" ORDER BY COUNT(*) DESC LIMIT 10;', [
      'UserID',
      'count_star()',
    ]),
    {
      order: [1],
      cut: { limit: true, offset: false },
    },
  );
  const q42 =
    'SELECT DATE_TRUNC(\'minute\', "EventTime") AS M, COUNT(*) AS PageViews FROM hits WHERE "IsRefresh" = 0 ' +
    'GROUP BY DATE_TRUNC(\'minute\', "EventTime") ORDER BY DATE_TRUNC(\'minute\', "EventTime") LIMIT 10 OFFSET 1000;';
  assert.deepEqual(q(q42, ['M', 'PageViews']), { order: [0], cut: { limit: true, offset: true } });
  assert.deepEqual(q('SELECT "SearchPhrase" FROM hits ORDER BY "SearchPhrase" LIMIT 10', ['SearchPhrase']).order, [0]);
  // A key that is not an output column: the order is checked strictly.
  assert.equal(q('SELECT "SearchPhrase" FROM hits ORDER BY "EventTime" LIMIT 10', ['SearchPhrase']).order, true);
  assert.deepEqual(q('SELECT "UserID", "SearchPhrase", COUNT(*) FROM hits GROUP BY 1, 2 LIMIT 10', ['a', 'b', 'c']), {
    order: [],
    cut: { limit: true, offset: false },
  });
  assert.deepEqual(q('select a from t', ['a']), { order: false, cut: { limit: false, offset: false } });
});
