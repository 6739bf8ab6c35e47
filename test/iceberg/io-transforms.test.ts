// Partition transforms: the spec's bucket check values (Appendix B), floor semantics before 1970, truncate, paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyTransform,
  bucketHash,
  checkTransform,
  humanPartitionValue,
  parseTransform,
  partitionPathSegment,
} from '../../catalog/iceberg/transforms.js';

const days = (iso: string) => Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86_400_000;
const micros = (iso: string) => BigInt(Date.parse(`${iso}Z`)) * 1000n;

test('bucket hashes match the spec check values', () => {
  assert.equal(bucketHash('int', 34), 2017239379);
  assert.equal(bucketHash('long', 34n), 2017239379);
  assert.equal(bucketHash('decimal(9, 2)', 1420n), -500754589);
  assert.equal(bucketHash('date', days('2017-11-16')), -653330422);
  assert.equal(bucketHash('time', 81068000000n), -662762989);
  assert.equal(bucketHash('timestamp', micros('2017-11-16T22:31:08')), -2047944441);
  assert.equal(bucketHash('timestamptz', micros('2017-11-16T22:31:08')), -2047944441);
  assert.equal(bucketHash('string', 'iceberg'), 1210000089);
  assert.equal(bucketHash('binary', Uint8Array.of(0, 1, 2, 3)), -188683207);
  // (hash & MAX_INT) % N
  assert.equal(applyTransform({ kind: 'bucket', n: 16 }, 'int', 34), 2017239379 % 16);
  assert.equal(applyTransform({ kind: 'bucket', n: 100 }, 'string', 'iceberg'), 1210000089 % 100);
  assert.equal(applyTransform({ kind: 'bucket', n: 7 }, 'date', days('2017-11-16')), (-653330422 & 0x7fffffff) % 7);
});

test('time transforms count from 1970 and floor before it', () => {
  const ts = 'timestamp';
  const cases: [string, string, bigint | number, number][] = [
    ['year', 'date', days('2017-11-16'), 47],
    ['month', 'date', days('2017-11-16'), 47 * 12 + 10],
    ['day', 'date', days('2017-11-16'), days('2017-11-16')],
    ['year', 'date', days('1969-12-31'), -1],
    ['month', 'date', days('1969-12-31'), -1],
    ['month', 'date', days('1969-01-01'), -12],
    ['year', ts, micros('2017-11-16T22:31:08'), 47],
    ['day', ts, micros('2017-11-16T22:31:08'), days('2017-11-16')],
    ['hour', ts, micros('2017-11-16T22:31:08'), days('2017-11-16') * 24 + 22],
    ['day', ts, -1n, -1],
    ['hour', ts, -1n, -1],
    ['hour', ts, -3_600_000_000n, -1],
    ['hour', ts, -3_600_000_001n, -2],
    ['day', 'timestamptz', micros('1969-12-31T23:59:59'), -1],
    ['month', ts, micros('1900-03-01T00:00:00'), (1900 - 1970) * 12 + 2],
    ['day', 'timestamp_ns', -1n, -1],
  ];
  for (const [kind, source, v, want] of cases)
    assert.equal(applyTransform(parseTransform(kind), source, v), want, `${kind}(${source} ${v})`);
  // Numbers are accepted for timestamp values (engine columns hold microseconds as doubles).
  assert.equal(applyTransform({ kind: 'day' }, ts, -1), -1);
});

test('truncate: integers floor toward -infinity, decimals on the unscaled value, strings by code point', () => {
  const t = (w: number) => ({ kind: 'truncate', width: w }) as const;
  assert.equal(applyTransform(t(10), 'int', 1), 0);
  assert.equal(applyTransform(t(10), 'int', -1), -10);
  assert.equal(applyTransform(t(10), 'long', -1n), -10n);
  assert.equal(applyTransform(t(10), 'long', 12345n), 12340n);
  assert.equal(applyTransform(t(50), 'decimal(9, 2)', 1065n), 1050n);
  assert.equal(applyTransform(t(50), 'decimal(9, 2)', -1065n), -1100n);
  assert.equal(applyTransform(t(3), 'string', 'iceberg'), 'ice');
  assert.equal(applyTransform(t(2), 'string', '😀é😀'), '😀é');
  assert.equal(applyTransform(t(5), 'string', 'ab'), 'ab');
  assert.equal(applyTransform(t(5), 'int', null), null);
  assert.equal(applyTransform({ kind: 'void' }, 'int', 5), null);
  assert.equal(applyTransform({ kind: 'identity' }, 'long', 5), 5n);
});

test('parse and check transforms against source types', () => {
  assert.deepEqual(parseTransform('bucket[16]'), { kind: 'bucket', n: 16 });
  assert.deepEqual(parseTransform(' Truncate[ 4 ] '), { kind: 'truncate', width: 4 });
  for (const bad of ['bucket[0]', 'bucket', 'truncate[-1]', 'week', 'bucket[x]'])
    assert.throws(() => parseTransform(bad), /invalid partition transform/);
  checkTransform(parseTransform('day'), 'timestamptz', 'ts');
  checkTransform(parseTransform('bucket[4]'), 'decimal(9, 2)', 'd');
  checkTransform(parseTransform('truncate[4]'), 'string', 's');
  checkTransform(parseTransform('identity'), 'double', 'x');
  for (const [t, ty] of [
    ['hour', 'date'],
    ['day', 'string'],
    ['bucket[2]', 'double'],
    ['bucket[2]', 'boolean'],
    ['truncate[2]', 'date'],
    ['year', 'long'],
  ])
    assert.throws(() => checkTransform(parseTransform(t!), ty!, 'c'), /cannot apply to column c/);
});

test('human partition values and path segments as Java prints them', () => {
  const h = (t: string, source: string, v: bigint | number | string | null) =>
    humanPartitionValue(parseTransform(t), source, v);
  assert.equal(h('year', 'date', 47), '2017');
  assert.equal(h('month', 'date', 47 * 12 + 10), '2017-11');
  assert.equal(h('month', 'date', -1), '1969-12');
  assert.equal(h('day', 'timestamp', days('2024-01-02')), '2024-01-02');
  assert.equal(h('hour', 'timestamp', days('2024-01-02') * 24 + 5), '2024-01-02-05');
  assert.equal(h('identity', 'decimal(9, 2)', -5n), '-0.05');
  assert.equal(h('identity', 'date', days('2024-01-02')), '2024-01-02');
  assert.equal(h('identity', 'string', 'a b/é'), 'a b/é');
  assert.equal(h('identity', 'int', null), 'null');
  assert.equal(partitionPathSegment('s', 'a b/é'), 's=a+b%2F%C3%A9');
});
