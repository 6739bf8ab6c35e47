// `catalogs:` in the manifest: warehouses resolve to URIs, access defaults to read, every problem names its key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManifestError, parseManifest } from '../../../../server/config/manifest.js';
import { mayWrite } from '../../../../server/pool/pool.js';

const base = { version: 'v1', kind: 'Spicepod', name: 't' };
const parse = (catalogs: unknown[], datasets: unknown[] = []) =>
  parseManifest({ ...base, catalogs, datasets }, '/srv/app', {});

describe('catalogs in the manifest', () => {
  it('resolves file, relative and s3 warehouses; access defaults to read', () => {
    const m = parse([
      { from: 'iceberg:file:///data/wh/', name: 'lake', access: 'read_write' },
      { from: 'iceberg:file:wh2', name: 'rel' },
      { from: 'iceberg:warehouse', name: 'bare' },
      { from: 'iceberg:s3://bucket/wh', name: 's3wh', params: { s3_region: 'eu-west-1', target_file_size: '8MiB' } },
    ]);
    assert.deepEqual(
      m.catalogs.map((c) => [c.name, c.warehouse, c.writable, c.targetFileBytes]),
      [
        ['lake', 'file:///data/wh', true, 128 * 1024 * 1024],
        ['rel', 'file:///srv/app/wh2', false, 128 * 1024 * 1024],
        ['bare', 'file:///srv/app/warehouse', false, 128 * 1024 * 1024],
        ['s3wh', 's3://bucket/wh', false, 8 * 1024 * 1024],
      ],
    );
    assert.equal(m.catalogs[3]!.s3?.region, 'eu-west-1');
    assert.deepEqual(m.warnings, []);
  });

  it('names the key of every problem, and never echoes a secret', () => {
    const problem = (catalogs: unknown[]) => {
      try {
        parse(catalogs);
      } catch (e) {
        assert.ok(e instanceof ManifestError);
        return e.message;
      }
      assert.fail('expected a ManifestError');
    };
    assert.match(
      problem([{ from: 'iceberg:https://rest/v1', name: 'r' }]),
      /catalogs\[0\]\.from: catalog kind 'https' is not supported yet/,
    );
    assert.match(problem([{ from: 'file:/x', name: 'r' }]), /catalogs\[0\]\.from: expected 'iceberg:<warehouse>'/);
    assert.match(
      problem([
        { from: 'iceberg:/a', name: 'a' },
        { from: 'iceberg:/b', name: 'A' },
      ]),
      /catalogs\[1\]\.name: catalog 'A' is already declared at catalogs\[0\]/,
    );
    assert.match(
      problem([{ from: 'iceberg:/a', name: 'FLOE' }]),
      /catalogs\[0\]\.name: 'floe' is the datasets' catalog/,
    );
    assert.match(problem([{ from: 'iceberg:/a', name: 'a.b' }]), /catalogs\[0\]\.name: expected an identifier/);
    assert.match(problem([{ from: 'iceberg:/a', name: 'a', access: 'write' }]), /catalogs\[0\]\.access/);
    assert.match(
      problem([{ from: 'iceberg:/a', name: 'a', params: { target_file_size: '12' } }]),
      /target_file_size: expected a size of at least 1KiB/,
    );
    const s3 = problem([
      {
        from: 'iceberg:s3://b/wh',
        name: 'a',
        params: { s3_endpoint: 'http://127.0.0.1:9', s3_key: 'AKIA-SECRET-KEY', s3_secret: 'TOPSECRET' },
      },
    ]);
    assert.match(s3, /catalogs\[0\]\.params\.s3_endpoint: .*allow_http/);
    assert.doesNotMatch(s3, /TOPSECRET|AKIA-SECRET-KEY/);
  });

  it('warns about keys it does not read, and accepts an iceberg dataset of one table', () => {
    const m = parse(
      [{ from: 'iceberg:/a', name: 'a', include: ['s.*'], params: { mystery: 1 } }],
      [{ from: 'iceberg:file:///wh/s/t', name: 't' }],
    );
    assert.deepEqual(m.warnings, [
      'catalogs[0].include: not supported yet; ignored',
      'catalogs[0].params.mystery: not supported yet; ignored',
    ]);
    assert.throws(
      () => parse([], [{ from: 'iceberg:glue', name: 't' }]),
      /datasets\[0\]\.from: expected 'iceberg:file:\/\/\/path\/to\/table'/,
    );
  });
});

describe('mayWrite (a dead worker re-runs only what cannot write)', () => {
  it('says yes to writes and DDL, no to plain reads', () => {
    for (const sql of [
      'INSERT INTO a.b.c VALUES (1)',
      'create table x (a int)',
      ' drop TABLE t',
      'insert overwrite t select 1',
    ])
      assert.equal(mayWrite(sql), true, sql);
    for (const sql of ['SELECT 1', 'select inserted from t', 'WITH x AS (SELECT 1) SELECT * FROM x'])
      assert.equal(mayWrite(sql), false, sql);
  });
});
