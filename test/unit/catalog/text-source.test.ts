// CSV/JSON sources in the catalog: the format by param or extension, the options, folders by extension, resolution.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { resolveDatasets } from '../../../catalog/datasets.js';
import { resolveFiles } from '../../../catalog/resolve-files.js';
import { catalogFromSnapshot } from '../../../catalog/snapshot.js';
import { SourceParamError, textSourceOf } from '../../../catalog/text-source.js';
import { cellText, createEngine } from '../../../engine/index.js';
import { makeTempDir } from '../../helpers/fixtures.js';

describe('textSourceOf', () => {
  const format = (from: string, params: Record<string, string> = {}) => {
    const s = textSourceOf({ from, params });
    return s === null ? 'parquet' : `${s.options.format} ${JSON.stringify(s.options.delimiter)} ${s.extensions}`;
  };

  it('picks the format by param, then by extension, else Parquet', () => {
    assert.equal(format('file:a.csv'), 'csv "," .csv');
    assert.equal(format('file:a.TSV'), 'csv "\\t" .tsv,.csv');
    assert.equal(format('file:a.tsv', { csv_delimiter: ';' }), 'csv ";" .csv');
    assert.equal(format('file:a.jsonl'), 'json "," .json,.jsonl,.ndjson');
    assert.equal(format('file:logs/*.ndjson'), 'json "," .json,.jsonl,.ndjson');
    assert.equal(format('file:dir/', { file_format: 'csv' }), 'csv "," .csv');
    assert.equal(format('file:dir/', { file_format: 'json' }), 'json "," .json,.jsonl,.ndjson');
    assert.equal(format('file:a.csv', { file_format: 'parquet' }), 'parquet');
    assert.equal(format('file:dir/'), 'parquet');
    assert.equal(format('file:a.data'), 'parquet');
  });

  it("reads Spice's csv_* params, `\\t` as a tab, and typed columns", () => {
    const s = textSourceOf({
      from: 'file:x.csv',
      params: {
        csv_has_header: 'false',
        csv_delimiter: '\\t',
        csv_quote: "'",
        csv_escape: '\\',
        csv_schema_infer_max_records: '7',
      },
      columns: [{ name: 'a', type: 'BIGINT' }, { name: 'b' }],
    });
    assert.deepEqual(s?.options, {
      format: 'csv',
      hasHeader: false,
      delimiter: '\t',
      quote: "'",
      escape: '\\',
      inferMaxRecords: 7,
      declared: [{ name: 'a', type: { id: 'int64' } }],
    });
  });

  it('refuses what it cannot read, naming the key', () => {
    const keyOf = (params: Record<string, string>) => {
      try {
        textSourceOf({ from: 'file:x.csv', params });
      } catch (e) {
        assert.ok(e instanceof SourceParamError);
        return `${e.key}: ${e.message}`;
      }
      return 'accepted';
    };
    assert.equal(keyOf({ file_format: 'avro' }), "params.file_format: file format 'avro' is not supported yet");
    assert.equal(keyOf({ csv_escape: 'ab' }), "params.csv_escape: expected one character, got 'ab'");
  });
});

describe('CSV and JSON datasets in the catalog', () => {
  let root: string;
  before(async () => {
    root = await makeTempDir();
    await mkdir(join(root, 'mixed/sub'), { recursive: true });
    await writeFile(join(root, 'mixed/a.csv'), 'x\n1\n');
    await writeFile(join(root, 'mixed/sub/b.csv'), 'x\n2\n');
    await writeFile(join(root, 'mixed/c.jsonl'), '{"x": 10}\n');
    await writeFile(join(root, 'mixed/d.parquet'), '');
  });

  it('a folder takes the files of its format', async () => {
    assert.deepEqual(await resolveFiles('file:mixed', root, ['.csv']), [
      join(root, 'mixed/a.csv'),
      join(root, 'mixed/sub/b.csv'),
    ]);
    await assert.rejects(resolveFiles('file:mixed', root, ['.tsv']), /no files match .*mixed\/\*\*\/\*\.tsv/);
  });

  it('resolves into csv/json entries (files mode) and memory entries (accelerated) that answer queries', async () => {
    const snapshot = await resolveDatasets(
      [
        { name: 'c', from: 'file:mixed', accelerated: false, params: { file_format: 'csv' } },
        { name: 'j', from: 'file:mixed', accelerated: true, params: { file_format: 'json' } },
      ],
      root,
    );
    assert.deepEqual(
      snapshot.tables.map((t) => t.kind),
      ['csv', 'memory'],
    );
    const engine = createEngine({ catalog: await catalogFromSnapshot(snapshot) });
    const result = await engine.execute('SELECT (SELECT sum(x) FROM c) + (SELECT sum(x) FROM j)');
    for await (const b of result.batches) assert.equal(cellText(b.columns[0]!, 0), '13');
  });

  it('a bad declared type or an unreadable file is a dataset error', async () => {
    await assert.rejects(
      resolveDatasets(
        [{ name: 'c', from: 'file:mixed/a.csv', accelerated: false, columns: [{ name: 'x', type: 'int4x' }] }],
        root,
      ),
      /datasets\[0\] \(c\): columns\[0\]\.type: unknown column type 'int4x'/,
    );
    await writeFile(join(root, 'broken.json'), '{"x": 1}\n{"x": }\n');
    await assert.rejects(
      resolveDatasets([{ name: 'j', from: 'file:broken.json', accelerated: true }], root),
      /datasets\[0\] \(j\): cannot load: .*broken\.json line 2: invalid JSON/,
    );
  });
});
