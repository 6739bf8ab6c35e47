// `civilField` (year, quarter, month, day of a day number) against JavaScript's Date, across eras and leap days.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { civilField } from '../../../../engine/functions/scalar/date.js';

const DAY_MS = 86_400_000;

test('civilField: the UTC calendar fields of every 997th day from year -768 to 4707, and the leap-day edges', () => {
  const edges = ['1970-01-01', '1969-12-31', '2000-02-29', '2000-03-01', '1900-02-28', '1900-03-01', '1600-02-29'];
  const days = [...edges.map((d) => Date.parse(`${d}T00:00:00Z`) / DAY_MS)];
  for (let z = -1_000_000; z <= 1_000_000; z += 997) days.push(z);
  for (const z of days) {
    const d = new Date(z * DAY_MS);
    const expected = {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      quarter: Math.floor(d.getUTCMonth() / 3) + 1,
    };
    for (const [field, value] of Object.entries(expected))
      assert.equal(civilField(field, z), value, `${field} of ${z}`);
  }
});
