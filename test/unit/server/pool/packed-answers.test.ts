// Packed answers: what a worker's batch sends back is what the main thread reads, query by query.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finished, Head } from '../../../../server/pool/messages.js';
import { packAnswers, unpackAnswers } from '../../../../server/pool/packed-answers.js';

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

test('whole answers come back in order with their heads and bodies; the others as they were', () => {
  const tables = ['orders'];
  const json: Head = { format: 'json', tables, cacheable: true };
  const csv: Head = { format: 'csv', tables, cacheable: true };
  const finished: Finished[] = [
    { id: 7, ms: 0.25, message: { type: 'whole', head: json, body: bytes('[{"a":1}]') } },
    { id: 8, ms: 3, message: null },
    { id: 9, ms: -1, message: { type: 'whole', head: { ...json, tables: ['orders'] }, body: bytes('') } },
    { id: 10, ms: 1, message: { type: 'error', error: { kind: 'parse', message: 'bad' } } },
    { id: 11, ms: 0.5, message: { type: 'whole', head: csv, body: bytes('a\n1\n') } },
  ];
  const { whole, rest } = packAnswers(finished);
  // Equal heads are sent once.
  assert.equal(whole.heads.length, 2);
  assert.deepEqual(rest, [finished[1], finished[3]]);
  const seen: [number, number, string, string][] = [];
  unpackAnswers(whole, (id, ms, head, body) => seen.push([id, ms, head.format, new TextDecoder().decode(body)]));
  assert.deepEqual(seen, [
    [7, 0.25, 'json', '[{"a":1}]'],
    [9, -1, 'json', ''],
    [11, 0.5, 'csv', 'a\n1\n'],
  ]);
});

test('a batch without whole answers packs to empty arrays', () => {
  const { whole, rest } = packAnswers([{ id: 1, ms: 2, message: null }]);
  assert.equal(whole.ids.length, 0);
  assert.equal(whole.bodies.byteLength, 0);
  assert.equal(rest.length, 1);
});
