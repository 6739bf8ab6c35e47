// `ageFields` + `formatInterval` (age(a, b) as PostgreSQL prints it) against PostgreSQL 15's answers (a sample of
// 3,600 pairs that matched in full: month ends, leap days, times of day, both signs), and interval text round trips.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ageFields } from '../../../../engine/functions/scalar/age.js';
import { formatInterval, intervalSpan, parseIntervalText } from '../../../../engine/plan/interval-text.js';

const micros = (ts: string) => Date.parse(`${ts.replace(' ', 'T')}Z`) * 1000 + fractionMicros(ts);
const fractionMicros = (ts: string) => Number((/\.(\d+)$/.exec(ts)?.[1] ?? '').padEnd(6, '0').slice(3) || 0);

/** [a, b, PostgreSQL's age(a, b)] */
const cases: [string, string, string][] = [
  ['1986-12-07', '1974-03-09', '12 years 8 mons 29 days'],
  ['2028-11-25 23:55:46', '2026-07-02', '2 years 4 mons 23 days 23:55:46'],
  ['1993-02-25 18:34:33.517871', '2033-03-31', '-40 years -1 mons -5 days -05:25:26.482129'],
  ['2038-02-21', '2024-03-31', '13 years 10 mons 21 days'],
  ['2022-07-05 08:04:42', '2021-03-21', '1 year 3 mons 15 days 08:04:42'],
  ['1977-07-13', '1983-11-14 19:20:21', '-6 years -4 mons -1 days -19:20:21'],
  ['1960-08-31', '1969-07-08', '-8 years -10 mons -8 days'],
  ['2024-03-31', '2039-06-30 08:29:22', '-15 years -2 mons -30 days -08:29:22'],
  ['1981-04-30', '1996-02-03', '-14 years -9 mons -3 days'],
  ['2001-02-28', '1976-05-31', '24 years 8 mons 28 days'],
  ['1998-01-27 23:58:56', '1979-04-30', '18 years 8 mons 27 days 23:58:56'],
  ['1961-11-30', '1992-11-30', '-31 years'],
  ['2021-03-14 19:13:29', '1995-09-08 02:06:38', '25 years 6 mons 6 days 17:06:51'],
  ['2015-10-31', '1966-04-30 07:15:06', '49 years 6 mons 16:44:54'],
  ['2008-03-31', '1969-11-05', '38 years 4 mons 26 days'],
  ['1960-08-21 08:15:17', '2000-02-28', '-39 years -6 mons -6 days -15:44:43'],
  ['1986-02-28', '1990-10-31', '-4 years -8 mons -3 days'],
  ['2028-05-22 18:37:17', '2030-09-19 08:17:24.143155', '-2 years -3 mons -27 days -13:40:07.143155'],
  ['1998-01-27 23:58:56', '2000-03-01', '-2 years -1 mons -4 days -00:01:04'],
  ['1999-12-31 23:59:59.999999', '1996-02-03', '3 years 10 mons 28 days 23:59:59.999999'],
  ['1985-07-10 01:55:21', '1962-06-11 22:08:05', '23 years 28 days 03:47:16'],
  ['2036-11-30', '2000-03-01', '36 years 8 mons 29 days'],
  ['1990-10-31', '2014-07-24 04:56:23.142573', '-23 years -8 mons -24 days -04:56:23.142573'],
  ['1999-12-31 23:59:59.999999', '1970-01-01', '29 years 11 mons 30 days 23:59:59.999999'],
  ['1990-10-31', '1984-03-11 03:38:03', '6 years 7 mons 19 days 20:21:57'],
  ['2028-05-22 18:37:17', '1983-03-09 16:20:59', '45 years 2 mons 13 days 02:16:18'],
  ['2028-04-30 03:38:01', '1983-11-21 11:56:58', '44 years 5 mons 8 days 15:41:03'],
  ['1965-01-29', '2030-09-19 08:17:24.143155', '-65 years -7 mons -21 days -08:17:24.143155'],
  ['2001-03-01', '1970-01-01', '31 years 2 mons'],
  ['1967-03-31 01:54:45.526510', '1998-01-27 23:58:56', '-30 years -9 mons -27 days -22:04:10.47349'],
  ['1985-05-12 14:57:26', '2021-03-14 19:13:29', '-35 years -10 mons -2 days -04:16:03'],
  ['2031-01-16 12:50:46', '1964-07-10', '66 years 6 mons 6 days 12:50:46'],
  ['2038-02-21', '1962-03-31 14:22:50', '75 years 10 mons 20 days 09:37:10'],
  ['1964-05-06 13:05:46', '1975-02-09 11:28:37', '-10 years -9 mons -2 days -22:22:51'],
  ['2026-07-02', '2014-07-24 04:56:23.142573', '11 years 11 mons 8 days 19:03:36.857427'],
  ['2020-09-30', '2005-10-31 18:03:43.387097', '14 years 10 mons 29 days 05:56:16.612903'],
  ['1989-04-23', '2024-01-31', '-34 years -9 mons -8 days'],
  ['2023-04-09 20:54:19', '2036-11-02', '-13 years -6 mons -22 days -03:05:41'],
  ['2000-02-28', '2023-04-09 20:54:19', '-23 years -1 mons -10 days -20:54:19'],
  ['2024-05-31 12:00', '2028-05-22 18:37:17', '-3 years -11 mons -22 days -06:37:17'],
];

for (const [a, b, expected] of cases) {
  test(`age('${a}', '${b}')`, () => {
    const text = formatInterval(ageFields(micros(a), micros(b)));
    assert.equal(text, expected);
    assert.deepEqual(parseIntervalText(text), ageFields(micros(a), micros(b)));
  });
}

test('interval order counts a month as 30 days and a day as 24 hours', () => {
  const span = (t: string) => intervalSpan(parseIntervalText(t));
  assert.equal(span('1 mon'), span('30 days'));
  assert.ok(span('1 year -1 days') < span('1 year'));
  assert.ok(span('-1 years +2 mons') < span('00:00:00'));
  assert.equal(span('1 day -04:05:00'), span('19:55:00'));
});
