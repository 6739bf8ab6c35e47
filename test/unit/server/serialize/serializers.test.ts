// The four /v1/sql formats byte for byte: values, nulls, quoting, empty results, several batches.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sliceBatch } from '../../../../engine/arrow/batch.js';
import { type Column, decodedStrings, makeColumn } from '../../../../engine/arrow/column.js';
import { take } from '../../../../engine/arrow/kernels/take.js';
import type { Batch, Schema } from '../../../../engine/index.js';
import { createSerializer, type ResultFormat } from '../../../../server/serialize/serializer.js';
import { batchOf, column, INT32, PEOPLE_SCHEMA, peopleBatch, schemaOf, UTF8 } from '../../../helpers/batches.js';

const text = (piece: string | Uint8Array) => (typeof piece === 'string' ? piece : Buffer.from(piece).toString('utf8'));

function render(format: ResultFormat, schema: Schema, batches: readonly Batch[]): string {
  const s = createSerializer(format);
  return text(s.begin(schema)) + batches.map((b) => text(s.batch(b))).join('') + text(s.end());
}

const twoCols = schemaOf([
  ['n', INT32, false],
  ['s', UTF8],
]);
const part = (ns: number[], ss: (string | null)[]) => batchOf(twoCols, [column(INT32, ns), column(UTF8, ss)]);

describe('json', () => {
  it('writes row objects with explicit nulls, exact decimals and non-finite floats as strings', () => {
    const rows = JSON.parse(render('json', PEOPLE_SCHEMA, [peopleBatch()]));
    assert.deepEqual(rows[0], {
      id: 1,
      name: 'Alice',
      note: 'plain',
      amount: 12.5,
      born: '1990-01-02',
      score: 1.5,
      active: true,
    });
    assert.deepEqual(rows[1], {
      id: 2,
      name: 'Bob',
      note: 'has, comma',
      amount: -3.05,
      born: null,
      score: 'NaN',
      active: false,
    });
    assert.deepEqual(rows[2], {
      id: 3,
      name: null,
      note: 'has "quotes"',
      amount: null,
      born: '2000-02-29',
      score: null,
      active: null,
    });
    assert.equal(rows[3].score, 'Infinity');
    assert.equal(rows[3].note, 'line1\nline2');
    assert.equal(rows[4].name, '日本');
  });

  it('keeps decimal text exact (no float rounding) and joins batches', () => {
    const text = render('json', PEOPLE_SCHEMA, [peopleBatch()]);
    assert.ok(text.includes('"amount":1234567.89'));
    assert.ok(text.includes('"amount":0.00'));
    assert.equal(
      render('json', twoCols, [part([1], ['a']), part([], []), part([2, 3], [null, 'c'])]),
      '[{"n":1,"s":"a"},{"n":2,"s":null},{"n":3,"s":"c"}]',
    );
  });

  it('writes [] for no rows', () => {
    assert.equal(render('json', twoCols, []), '[]');
  });
});

describe('vnd-json', () => {
  it('writes schema, data and row_count in that order', () => {
    const text = render('vnd-json', twoCols, [part([1], ['x']), part([2], [null])]);
    assert.equal(
      text,
      '{"schema":{"fields":[{"name":"n","data_type":"Int32","nullable":false},{"name":"s","data_type":"Utf8","nullable":true}]},' +
        '"data":[{"n":1,"s":"x"},{"n":2,"s":null}],"row_count":2}',
    );
  });

  it('keeps the real schema for an empty result and names Arrow types', () => {
    const body = JSON.parse(render('vnd-json', PEOPLE_SCHEMA, []));
    assert.deepEqual(body.data, []);
    assert.equal(body.row_count, 0);
    assert.deepEqual(
      body.schema.fields.map((f: { data_type: string }) => f.data_type),
      ['Int32', 'Utf8', 'Utf8', 'Decimal128(15, 2)', 'Date32', 'Float64', 'Boolean'],
    );
  });
});

describe('csv', () => {
  it('quotes the header, quotes values only when needed, leaves nulls empty', () => {
    assert.equal(
      render('csv', PEOPLE_SCHEMA, [peopleBatch()]),
      '"id","name","note","amount","born","score","active"\n' +
        '1,Alice,plain,12.50,1990-01-02,1.5,true\n' +
        '2,Bob,"has, comma",-3.05,,NaN,false\n' +
        '3,,"has ""quotes""",,2000-02-29,,\n' +
        '4,Zoë,"line1\nline2",0.00,1970-01-01,Infinity,true\n' +
        '5,日本,"",1234567.89,2024-12-31,-0.25,false\n',
    );
  });

  it('writes the header alone for an empty result', () => {
    assert.equal(render('csv', twoCols, []), '"n","s"\n');
  });
});

describe('table-text', () => {
  it('draws borders around every row, blank nulls, escaped newlines', () => {
    assert.equal(
      render('table-text', twoCols, [part([1, 22], ['Zoë', null]), part([3], ['a\nb'])]),
      [
        '+----+------+',
        '| n  | s    |',
        '+----+------+',
        '| 1  | Zoë  |',
        '+----+------+',
        '| 22 |      |',
        '+----+------+',
        '| 3  | a\\nb |',
        '+----+------+',
        '',
      ].join('\n'),
    );
  });

  it('draws the header for an empty result', () => {
    assert.equal(render('table-text', twoCols, []), '+---+---+\n| n | s |\n+---+---+\n');
  });
});

describe('text held as UTF-8 bytes', () => {
  const enc = new TextEncoder();
  /** A utf8 column stored the way Parquet decoding and accelerated tables store it. */
  const bytesColumn = (ss: (string | null)[]): Column => {
    const parts = ss.map((s) => enc.encode(s ?? ''));
    const offsets = new Int32Array(ss.length + 1);
    for (const [i, p] of parts.entries()) offsets[i + 1] = offsets[i]! + p.length;
    const bytes = new Uint8Array(offsets[ss.length]!);
    for (const [i, p] of parts.entries()) bytes.set(p, offsets[i]!);
    const valid = ss.includes(null) ? Uint8Array.from(ss, (s) => (s === null ? 0 : 1)) : null;
    return makeColumn(UTF8, { offsets, bytes }, valid, ss.length);
  };
  const texts = ['Zoë', null, 'a,"b"', '日本 🚀', '', 'plain'];

  it('renders every format as it renders the same strings', () => {
    const ns = texts.map((_, i) => i);
    for (const format of ['json', 'vnd-json', 'csv', 'table-text'] as const) {
      const want = render(format, twoCols, [part(ns, texts)]);
      const got = render(format, twoCols, [batchOf(twoCols, [column(INT32, ns), bytesColumn(texts)])]);
      assert.equal(got, want, format);
      // A slice: offsets that do not start at 0.
      const sliced = sliceBatch(batchOf(twoCols, [column(INT32, ns), bytesColumn(texts)]), 2, 5);
      assert.equal(
        render(format, twoCols, [sliced]),
        render(format, twoCols, [part(ns.slice(2, 5), texts.slice(2, 5))]),
      );
    }
  });

  it('decodes only the rows a filter kept, not the whole column', () => {
    const big = bytesColumn(Array.from({ length: 10_000 }, (_, i) => `row ${i} é`));
    const kept = take(big, Int32Array.from([4321]));
    const out = render('json', schemaOf([['s', UTF8]]), [batchOf(schemaOf([['s', UTF8]]), [kept])]);
    assert.equal(out, '[{"s":"row 4321 é"}]');
    assert.equal(decodedStrings(big), null, 'the source column was never decoded');
  });
});
