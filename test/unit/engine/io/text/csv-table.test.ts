// CSV tables: quoting, headers, delimiters, NULLs, type inference, declared types and the errors bad rows raise.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMemoryTable, declaredType, loadTextTable, textReadOptions } from '../../../../../engine/index.js';
import { columnsOf, queryRows, type TextFixture, textFixture, textTable } from '../../../../helpers/text-files.js';

let fx: TextFixture;
before(async () => {
  fx = await textFixture();
});
after(() => fx.remove());

test('quoted fields keep delimiters, newlines and doubled quotes', async () => {
  const path = await fx.write('quoted.csv', 'id,note\n1,"a, b"\n2,"two\nlines"\n3,"say ""hi"""\n');
  const t = await textTable([path], 'csv');
  assert.deepEqual(columnsOf(t), ['id bigint', 'note text']);
  assert.deepEqual(await queryRows(t, 'SELECT id, note FROM t ORDER BY id'), [
    ['1', 'a, b'],
    ['2', 'two\nlines'],
    ['3', 'say "hi"'],
  ]);
});

test('csv_escape: a backslash escapes the quote', async () => {
  const path = await fx.write('escaped.csv', 'id,note\n1,"say \\"hi\\""\n');
  const t = await textTable([path], 'csv', { escape: '\\' });
  assert.deepEqual(await queryRows(t, 'SELECT note FROM t'), [['say "hi"']]);
});

test('csv_quote: another quote character', async () => {
  const path = await fx.write('single.csv', "id,note\n1,'a,b'\n");
  const t = await textTable([path], 'csv', { quote: "'" });
  assert.deepEqual(await queryRows(t, 'SELECT note FROM t'), [['a,b']]);
});

test('without a header the columns are column_1..n', async () => {
  const path = await fx.write('noheader.csv', '1,x\n2,y\n');
  const t = await textTable([path], 'csv', { hasHeader: false });
  assert.deepEqual(columnsOf(t), ['column_1 bigint', 'column_2 text']);
  assert.deepEqual(await queryRows(t, 'SELECT column_2 FROM t WHERE column_1 = 2'), [['y']]);
});

test('other delimiters: tab and semicolon', async () => {
  const tsv = await fx.write('tabs.tsv', 'a\tb\n1\t2.5\n');
  const semi = await fx.write('semi.csv', 'a;b\n1;x,y\n');
  assert.deepEqual(await queryRows(await textTable([tsv], 'csv', { delimiter: '\t' }), 'SELECT a + b FROM t'), [
    ['3.5'],
  ]);
  assert.deepEqual(await queryRows(await textTable([semi], 'csv', { delimiter: ';' }), 'SELECT b FROM t'), [['x,y']]);
});

test('an empty field is NULL, in every type', async () => {
  const path = await fx.write('nulls.csv', 'i,d,s,b\n1,1.5,x,true\n,,,\n');
  const t = await textTable([path], 'csv');
  assert.deepEqual(columnsOf(t), ['i bigint', 'd double precision', 's text', 'b boolean']);
  assert.deepEqual(await queryRows(t, 'SELECT count(i), count(d), count(s), count(b), count(*) FROM t'), [
    ['1', '1', '1', '1', '2'],
  ]);
});

test('inference: each type, widening, and an all-NULL column as text', async () => {
  const path = await fx.write(
    'types.csv',
    [
      'i,big,f,mixed,b,d,ts,dts,s,n',
      '1,9007199254740993,1.5,1,true,2024-01-31,2024-01-31T10:20:30,2024-01-01,x,',
      '-2,-9223372036854775808,2e3,2.5,FALSE,2024-02-29,2024-02-01 00:00:00.5,2024-01-02 03:04:05,1,',
    ].join('\n'),
  );
  const t = await textTable([path], 'csv');
  assert.deepEqual(columnsOf(t), [
    'i bigint',
    'big bigint',
    'f double precision',
    'mixed double precision',
    'b boolean',
    'd date',
    'ts timestamp',
    'dts timestamp',
    's text',
    'n text',
  ]);
  assert.deepEqual(await queryRows(t, 'SELECT i, big, f, mixed, b, d, ts, dts, s, n FROM t'), [
    [
      '1',
      '9007199254740993',
      '1.5',
      '1',
      'true',
      '2024-01-31',
      '2024-01-31 10:20:30',
      '2024-01-01 00:00:00',
      'x',
      null,
    ],
    [
      '-2',
      '-9223372036854775808',
      '2000',
      '2.5',
      'false',
      '2024-02-29',
      '2024-02-01 00:00:00.5',
      '2024-01-02 03:04:05',
      '1',
      null,
    ],
  ]);
});

test('not-a-date and out-of-range integers are not their types', async () => {
  const path = await fx.write('edge.csv', 'd,i\n2024-02-30,99999999999999999999\n');
  assert.deepEqual(columnsOf(await textTable([path], 'csv')), ['d text', 'i double precision']);
});

test('declared types replace the inferred ones', async () => {
  const path = await fx.write('declared.csv', 'id,price,code\n1,2.50,007\n2,3,010\n');
  const declared = [
    { name: 'price', type: declaredType('decimal(10,2)')! },
    { name: 'code', type: declaredType('TEXT')! },
  ];
  const t = await textTable([path], 'csv', { declared });
  assert.deepEqual(columnsOf(t), ['id bigint', 'price numeric(10,2)', 'code text']);
  assert.deepEqual(await queryRows(t, 'SELECT sum(price), min(code) FROM t'), [['5.50', '007']]);
  await assert.rejects(textTable([path], 'csv', { declared: [{ name: 'nope', type: declaredType('bigint')! }] }), {
    message: /declared column "nope" is not a column of .*declared\.csv \(id, price, code\)/,
  });
  assert.equal(declaredType('decimal(40,2)'), null);
  assert.equal(declaredType('varchar(3)'), null);
});

test('a value that breaks its column type names file, line and column', async () => {
  const rows = ['id,price', ...Array.from({ length: 20 }, (_, i) => `${i},${i}.5`), '20,n/a', '21,1'];
  const path = await fx.write('late.csv', `${rows.join('\n')}\n`);
  const t = await textTable([path], 'csv', { inferMaxRecords: 10 });
  assert.deepEqual(columnsOf(t), ['id bigint', 'price double precision']);
  await assert.rejects(queryRows(t, 'SELECT sum(price) FROM t'), {
    kind: 'exec',
    message: `${path} line 22, column "price": 'n/a' is not a DOUBLE`,
  });
  // A column the query does not read is not parsed.
  assert.deepEqual(await queryRows(t, 'SELECT count(id) FROM t'), [['22']]);
  // Inferred from every row, the column is text.
  assert.deepEqual(columnsOf(await textTable([path], 'csv')), ['id bigint', 'price text']);
});

test('a row of the wrong width names file and line (after a multi-line record)', async () => {
  const path = await fx.write('width.csv', 'a,b\n1,"x\ny"\n\n2,z\n3\n');
  const t = await textTable([path], 'csv', { inferMaxRecords: 1 });
  await assert.rejects(queryRows(t, 'SELECT a FROM t'), {
    kind: 'exec',
    message: `${path} line 6: expected 2 fields, found 1`,
  });
  await assert.rejects(textTable([path], 'csv'), { message: `${path} line 6: expected 2 fields, found 1` });
});

test('a quote never closed is malformed CSV at its line', async () => {
  const path = await fx.write('open.csv', 'a,b\n1,2\n3,"never\n');
  await assert.rejects(textTable([path], 'csv'), {
    kind: 'exec',
    message: new RegExp(`^${path} line \\d+: malformed CSV`),
  });
});

test('empty files: header only, nothing at all, and declared columns', async () => {
  const headerOnly = await fx.write('header-only.csv', 'a,b\n');
  const empty = await fx.write('empty.csv', '');
  const t = await textTable([headerOnly], 'csv');
  assert.deepEqual(columnsOf(t), ['a text', 'b text']);
  assert.deepEqual(await queryRows(t, 'SELECT count(*) FROM t'), [['0']]);
  await assert.rejects(textTable([empty], 'csv'), { message: /no columns found \(empty file\)/ });
  const declared = await textTable([empty], 'csv', { declared: [{ name: 'x', type: declaredType('bigint')! }] });
  assert.deepEqual(await queryRows(declared, 'SELECT count(*) FROM t'), [['0']]);
  // An empty file among others adds no rows.
  const one = await fx.write('one.csv', 'a,b\n1,2\n');
  assert.deepEqual(await queryRows(await textTable([headerOnly, one], 'csv'), 'SELECT a, b FROM t'), [['1', '2']]);
});

test('a UTF-8 BOM is dropped and multi-byte text survives chunk borders', async () => {
  const text = `\ufeffname,n\n${Array.from({ length: 3000 }, (_, i) => `é${i}ü,${i}`).join('\n')}\n`;
  const path = await fx.write('bom.csv', text);
  const t = await textTable([path], 'csv');
  assert.deepEqual(columnsOf(t), ['name text', 'n bigint']);
  assert.deepEqual(await queryRows(t, "SELECT count(*), max(n), min(name) FROM t WHERE name LIKE 'é%ü'"), [
    ['3000', '2999', 'é0ü'],
  ]);
});

test('files with different headers fail the scan naming the file', async () => {
  const a = await fx.write('h1.csv', 'a,b\n1,2\n');
  const b = await fx.write('h2.csv', 'a,c\n1,2\n');
  const t = await textTable([a, b], 'csv');
  await assert.rejects(queryRows(t, 'SELECT a FROM t'), {
    message: `${b}: its header (a, c) does not name the table's columns (a, b)`,
  });
});

test('LIMIT stops reading; many batches; accelerated load matches', async () => {
  const path = await fx.write(
    'many.csv',
    `k,v\n${Array.from({ length: 70_000 }, (_, i) => `${i},${i % 7}`).join('\n')}\n`,
  );
  const t = await textTable([path], 'csv');
  assert.deepEqual(await queryRows(t, 'SELECT k FROM t LIMIT 2'), [['0'], ['1']]);
  const sums = await queryRows(t, 'SELECT count(*), sum(k), sum(v) FROM t');
  assert.deepEqual(sums, [['70000', '2449965000', '210000']]);
  const loaded = createMemoryTable(await loadTextTable([path], textReadOptions('csv')));
  assert.deepEqual(await queryRows(loaded, 'SELECT count(*), sum(k), sum(v) FROM t'), sums);
});

test('a missing file fails the scan naming it', async () => {
  const path = await fx.write('gone.csv', 'a\n1\n');
  const t = await textTable([path], 'csv');
  const { rm } = await import('node:fs/promises');
  await rm(path);
  await assert.rejects(queryRows(t, 'SELECT a FROM t'), { kind: 'exec', message: `${path}: no such file` });
});

test('records and multi-byte characters split across read ranges', async () => {
  const { readCsvRecords } = await import('../../../../../engine/io/text/csv-records.js');
  const path = await fx.write('split.csv', 'a,b\n"x\ny",é€\n2,"q""r"\n');
  const records: string[][] = [];
  for await (const r of readCsvRecords(path, textReadOptions('csv'), 3)) records.push([String(r.line), ...r.fields]);
  assert.deepEqual(records, [
    ['1', 'a', 'b'],
    ['2', 'x\ny', 'é€'],
    ['4', '2', 'q"r'],
  ]);
});

test('EXPLAIN names the files and format; a cancelled scan stops', async () => {
  const path = await fx.write('explain.csv', 'a,b\n1,2\n3,4\n');
  const t = await textTable([path], 'csv');
  const plan = await queryRows(t, 'EXPLAIN SELECT a FROM t WHERE b > 2');
  assert.match(plan.at(-1)![0]!, /Scan: t projection=\[a, b\] filters=\[t\.b > 2\] files=1 format=csv$/);
  const aborted = new AbortController();
  aborted.abort();
  const scan = async () => {
    for await (const _ of t.scan({ columns: ['a'], filters: [], limit: null }, aborted.signal)) {
    }
  };
  await assert.rejects(scan(), { name: 'CancelledError' });
});

test('CRLF line ends: fields without the CR, lines counted once per CRLF', async () => {
  const path = await fx.write('crlf.csv', 'a,b\r\n1,"x\r\ny"\r\n2,z\r\n3\r\n');
  const t = await textTable([path], 'csv', { inferMaxRecords: 2 });
  assert.deepEqual(await queryRows(t, 'SELECT a, b FROM t LIMIT 2'), [
    ['1', 'x\r\ny'],
    ['2', 'z'],
  ]);
  await assert.rejects(queryRows(t, 'SELECT a FROM t'), { message: `${path} line 5: expected 2 fields, found 1` });
});
