// JSON tables: NDJSON and array files, nested values as JSON text, NULLs, inference, and the errors bad input raises.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { declaredType } from '../../../../../engine/index.js';
import { readJsonRecords } from '../../../../../engine/io/text/json-records.js';
import { JsonSplitter } from '../../../../../engine/io/text/json-splitter.js';
import { columnsOf, queryRows, type TextFixture, textFixture, textTable } from '../../../../helpers/text-files.js';

let fx: TextFixture;
before(async () => {
  fx = await textFixture();
});
after(() => fx.remove());

const ROWS = [
  { id: 1, name: 'a', score: 1.5, ok: true, day: '2024-01-02', seen: '2024-01-02T03:04:05Z', tags: ['x', 'y'] },
  { id: 2, name: null, score: 2, ok: false, day: '2024-01-03', seen: '2024-01-02 10:00:00', tags: { k: 'v' } },
  { id: 3, score: null },
];
const EXPECTED_COLUMNS = [
  'id bigint',
  'name text',
  'score double precision',
  'ok boolean',
  'day date',
  'seen timestamp',
  'tags text',
];
const EXPECTED_ROWS = [
  ['1', 'a', '1.5', 'true', '2024-01-02', '2024-01-02 03:04:05', '["x","y"]'],
  ['2', null, '2', 'false', '2024-01-03', '2024-01-02 10:00:00', '{"k":"v"}'],
  ['3', null, null, null, null, null, null],
];
const ALL = 'SELECT id, name, score, ok, day, seen, tags FROM t ORDER BY id';

test('NDJSON: one object a line; nested values are JSON text; missing keys and null are NULL', async () => {
  const path = await fx.write('rows.jsonl', `${ROWS.map((r) => JSON.stringify(r)).join('\n')}\n\n`);
  const t = await textTable([path], 'json');
  assert.deepEqual(columnsOf(t), EXPECTED_COLUMNS);
  assert.deepEqual(await queryRows(t, ALL), EXPECTED_ROWS);
});

test('a file that is one array of objects, pretty-printed, with a BOM', async () => {
  const path = await fx.write('rows.json', `\ufeff${JSON.stringify(ROWS, null, 2)}\n`);
  const t = await textTable([path], 'json');
  assert.deepEqual(columnsOf(t), EXPECTED_COLUMNS);
  assert.deepEqual(await queryRows(t, ALL), EXPECTED_ROWS);
});

test('objects and arrays split across read ranges keep their lines; braces inside strings', async () => {
  const text = '[\n {"a": "}{[", "b": "\\"}"},\n {"a": "é€",\n  "b": 2}\n]';
  const path = await fx.write('split.json', text);
  const got: string[] = [];
  for await (const r of readJsonRecords(path, 2)) got.push(`${r.line}:${JSON.stringify(r.value)}`);
  assert.deepEqual(got, ['2:{"a":"}{[","b":"\\"}"}', '3:{"a":"é€","b":2}']);
});

test('escaped quotes and backslashes in strings: the same objects whatever the pieces fed', () => {
  const text = '[{"a":"x\\\\\\"y{","b":[1,{"c":"\\\\"}]},\n{"d":"]}\\""}]';
  const whole = new JsonSplitter().feed(text);
  assert.deepEqual(
    whole.map((r) => [r.line, JSON.parse(r.text)]),
    [
      [1, { a: 'x\\"y{', b: [1, { c: '\\' }] }],
      [2, { d: ']}"' }],
    ],
  );
  for (let size = 1; size < 8; size++) {
    const splitter = new JsonSplitter();
    const got = [];
    for (let i = 0; i < text.length; i += size) got.push(...splitter.feed(text.slice(i, i + size)));
    splitter.end();
    assert.deepEqual(got, whole, `pieces of ${size}`);
  }
});

test('a value that breaks its inferred type names file, line and column', async () => {
  const lines = [...Array.from({ length: 5 }, (_, i) => JSON.stringify({ n: i })), '{"n": "many"}'];
  const path = await fx.write('late.ndjson', lines.join('\n'));
  const t = await textTable([path], 'json', { inferMaxRecords: 5 });
  assert.deepEqual(columnsOf(t), ['n bigint']);
  await assert.rejects(queryRows(t, 'SELECT sum(n) FROM t'), {
    kind: 'exec',
    message: `${path} line 6, column "n": 'many' is not a BIGINT`,
  });
});

test('declared types apply to JSON values and may add a column', async () => {
  const path = await fx.write('declared.jsonl', '{"p": 1.25, "code": 7}\n{"p": "2.5"}\n');
  const declared = [
    { name: 'p', type: declaredType('decimal(6,2)')! },
    { name: 'code', type: declaredType('text')! },
    { name: 'later', type: declaredType('date')! },
  ];
  const t = await textTable([path], 'json', { declared });
  assert.deepEqual(columnsOf(t), ['p numeric(6,2)', 'code text', 'later date']);
  assert.deepEqual(await queryRows(t, 'SELECT p, code, later FROM t'), [
    ['1.25', '7', null],
    ['2.50', null, null],
  ]);
});

test('malformed input: bad JSON, a non-object record, text after the array, an unclosed array', async () => {
  const cases: [string, string, RegExp][] = [
    ['bad.jsonl', '{"a": 1}\n{"a": }\n', /line 2: invalid JSON/],
    ['scalar.jsonl', '{"a": 1}\n42\n', /line 2: expected a JSON object for each record, found '4'/],
    ['nested.json', '[{"a": 1}, [1]]', /line 1: expected a JSON object for each element of the array/],
    ['after.json', '[{"a": 1}]\n{"a": 2}', /line 2: unexpected text after the top-level array/],
    ['open.json', '[{"a": 1},\n', /line 2: unexpected end of file: the array is not closed/],
    ['cut.jsonl', '{"a": 1}\n{"a": [1,\n', /line 2: unexpected end of file inside an object/],
  ];
  for (const [name, text, message] of cases) {
    const path = await fx.write(name, text);
    await assert.rejects(textTable([path], 'json'), { kind: 'exec', message }, name);
  }
});

test('empty JSON files: no bytes, an empty array', async () => {
  const empty = await fx.write('empty.json', '');
  const none = await fx.write('none.json', '[]');
  await assert.rejects(textTable([empty], 'json'), { message: /no columns found/ });
  await assert.rejects(textTable([none], 'json'), { message: /no columns found/ });
  const one = await fx.write('one.json', '[{"a": 1}]');
  assert.deepEqual(await queryRows(await textTable([none, empty, one], 'json'), 'SELECT a FROM t'), [['1']]);
});
