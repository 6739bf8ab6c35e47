// Manifest loading: a real spicepod loads, secrets substitute, and every error names its key path.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadManifest, ManifestError, parseManifest } from '../../../../server/config/manifest.js';

const SPICEPOD = `
version: v1beta1
kind: Spicepod
name: taxi
datasets:
  - from: file:data/trips.parquet
    name: trips
    description: NYC taxi trips
    params:
      file_format: parquet
    acceleration:
      enabled: true
      refresh_check_interval: 10s
  - from: file://\${env:FLOE_TEST_DIR}/zones/
    name: zones
models:
  - from: openai:gpt-4o
    name: nql
runtime:
  results_cache:
    enabled: true
  http:
    max_body_bytes: 1024
`;

async function writeManifest(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'floe-manifest-'));
  const path = join(dir, 'spicepod.yaml');
  await writeFile(path, text);
  return path;
}

const base = { version: 'v1', kind: 'Spicepod', name: 'm' };

function problem(doc: object, env: NodeJS.ProcessEnv = {}): string {
  try {
    parseManifest({ ...base, ...doc }, '/base', env);
  } catch (e) {
    assert.ok(e instanceof ManifestError, `expected ManifestError, got ${e}`);
    return e.message;
  }
  assert.fail('manifest was accepted');
}

describe('loadManifest', () => {
  it('loads a Spice spicepod.yaml as is, resolving paths against its folder', async () => {
    const path = await writeManifest(SPICEPOD);
    const m = await loadManifest(path, { FLOE_TEST_DIR: '/srv/geo' });
    assert.equal(m.name, 'taxi');
    assert.equal(m.baseDir, join(path, '..'));
    const refresh = { mode: 'full', checkIntervalMs: 10_000, sql: null, jitterMaxMs: 0, retryEnabled: true };
    assert.deepEqual(m.datasets, [
      {
        name: 'trips',
        from: 'file:data/trips.parquet',
        accelerated: true,
        params: { file_format: 'parquet' },
        refresh: { ...refresh, retryMaxAttempts: null, onStartup: 'auto' },
      },
      { name: 'zones', from: 'file:///srv/geo/zones/', accelerated: false, params: {} },
    ]);
    assert.equal(m.maxBodyBytes, 1024);
  });

  it('warns about sections and keys that later issues implement', async () => {
    const m = await loadManifest(await writeManifest(SPICEPOD), { FLOE_TEST_DIR: '/x' });
    assert.deepEqual(m.warnings, ['runtime.results_cache: deprecated; read as runtime.caching.sql_results']);
  });

  it('reads runtime.flight: off, an address, the default address; max_message_size is warned about', () => {
    const flight = (f: object) => parseManifest({ ...base, runtime: { flight: f } }, '/b', {});
    assert.equal(flight({ enabled: false }).flight, 'off');
    assert.deepEqual(flight({ address: '0.0.0.0:50052' }).flight, { host: '0.0.0.0', port: 50052 });
    assert.deepEqual(flight({}).flight, { host: '127.0.0.1', port: 50051 });
    assert.equal(parseManifest(base, '/b', {}).flight, undefined);
    assert.deepEqual(flight({ max_message_size: '8MB' }).warnings, [
      'runtime.flight.max_message_size: not supported yet; ignored',
    ]);
    assert.throws(() => flight({ address: 'nowhere' }), /runtime\.flight\.address: expects HOST:PORT, got 'nowhere'/);
  });

  it('defaults the body limit to 128 MiB and accepts v2 manifests', () => {
    const m = parseManifest({ ...base, version: 'v2' }, '/b', {});
    assert.equal(m.maxBodyBytes, 128 * 1024 * 1024);
    assert.deepEqual(m.datasets, []);
  });

  it('reports invalid YAML with its position', async () => {
    await assert.rejects(loadManifest(await writeManifest('name: [unclosed\n')), (e: Error) => {
      assert.ok(e instanceof ManifestError);
      assert.match(e.message, /^manifest: invalid YAML: .*line 2/s);
      return true;
    });
  });

  it('reports a missing file', async () => {
    await assert.rejects(
      loadManifest('/nonexistent/floe.yaml'),
      /manifest: cannot read \/nonexistent\/floe.yaml: ENOENT/,
    );
  });
});

describe('secret substitution', () => {
  const ds = (from: string) => ({ datasets: [{ name: 't', from }] });
  const fromOf = (doc: object, env: NodeJS.ProcessEnv) =>
    parseManifest({ ...base, ...doc }, '/b', env).datasets[0]?.from;

  it('replaces ${env:NAME} inside longer strings', () => {
    assert.equal(fromOf(ds('file:${env:ROOT}/t.parquet'), { ROOT: '/data' }), 'file:/data/t.parquet');
  });

  it('upper-cases ${secrets:name} keys for the env store, and allows spaces', () => {
    assert.equal(fromOf(ds('file:${ secrets:data_root }/t'), { DATA_ROOT: '/d' }), 'file:/d/t');
  });

  it('accepts a named env store declared under secrets', () => {
    const doc = { ...ds('file:${local:dir}/t'), secrets: [{ from: 'env', name: 'local' }] };
    assert.equal(fromOf(doc, { DIR: '/l' }), 'file:/l/t');
  });

  it('names the key path of an unset variable', () => {
    assert.equal(
      problem(ds('file:${env:NOPE}/t')),
      "datasets[0].from: '${env:NOPE}' is not set (environment variable NOPE)",
    );
  });

  it('rejects an unknown store', () => {
    assert.equal(problem(ds('file:${vault:x}')), "datasets[0].from: unknown secret store 'vault' in '${vault:x}'");
  });
});

describe('manifest errors name the key path', () => {
  const cases: [string, object, string][] = [
    [
      'unknown connector',
      {
        datasets: [
          { name: 'a', from: 'file:a' },
          { name: 'b', from: 'ftp://host/x' },
        ],
      },
      "datasets[1].from: unknown connector 'ftp'",
    ],
    [
      'known connector not built yet',
      { datasets: [{ name: 'a', from: 's3a://bucket/a/' }] },
      "datasets[0].from: connector 's3a' is not supported yet (floe reads 'file:', 's3:' and 'iceberg:' sources)",
    ],
    [
      'postgres',
      { datasets: [{ name: 'a', from: 'postgres:public.a' }] },
      "datasets[0].from: connector 'postgres' is not supported yet (floe reads 'file:', 's3:' and 'iceberg:' sources)",
    ],
    [
      's3 without a bucket',
      { datasets: [{ name: 'a', from: 's3://' }] },
      "datasets[0].from: expected 's3://bucket/key', got 's3://'",
    ],
    [
      's3 over plain http without allow_http (fail closed)',
      { datasets: [{ name: 'a', from: 's3://b/k/', params: { s3_endpoint: 'http://127.0.0.1:9000' } }] },
      "datasets[0].params.s3_endpoint: 'http://127.0.0.1:9000' is plain http: set allow_http: true to allow it",
    ],
    [
      's3 over http with allow_http false',
      { datasets: [{ name: 'a', from: 's3://b/k/', params: { s3_endpoint: 'http://h:1', allow_http: false } }] },
      "datasets[0].params.s3_endpoint: 'http://h:1' is plain http: set allow_http: true to allow it",
    ],
    [
      's3_auth',
      { datasets: [{ name: 'a', from: 's3://b/k/', params: { s3_auth: 'token' } }] },
      'datasets[0].params.s3_auth: expected one of "public"|"key"|"iam_role"',
    ],
    [
      'key auth without a secret',
      { datasets: [{ name: 'a', from: 's3://b/k/', params: { s3_auth: 'key', s3_key: 'AKIA' } }] },
      "datasets[0].params.s3_secret: needed when s3_auth is 'key' (missing)",
    ],
    [
      'client_timeout',
      { datasets: [{ name: 'a', from: 's3://b/k/', params: { client_timeout: 'soon' } }] },
      "datasets[0].params.client_timeout: invalid duration 'soon' (e.g. 30s, 500ms)",
    ],
    [
      'a secret of the wrong type is not echoed',
      { datasets: [{ name: 'a', from: 's3://b/k/', params: { s3_key: 'AKIA', s3_secret: 987654321 } }] },
      'datasets[0].params.s3_secret: expected a string',
    ],
    [
      'source without a connector',
      { datasets: [{ name: 'a', from: 'data.parquet' }] },
      "datasets[0].from: expected '<connector>:<path>', e.g. 'file:data/trips.parquet', got 'data.parquet'",
    ],
    ['missing name', { datasets: [{ from: 'file:a' }] }, 'datasets[0].name: expected string (missing)'],
    ['wrong type', { datasets: [{ name: 'a', from: 42 }] }, 'datasets[0].from: expected string, received number'],
    ['unknown dataset key', { datasets: [{ name: 'a', from: 'file:a', form: 'x' }] }, 'datasets[0].form: unknown key'],
    ['unknown top-level key', { dataset: [] }, 'dataset: unknown key'],
    ['bad version', { version: 'v9' }, 'version: expected one of "v1beta1"|"v1"|"v2"'],
    ['bad kind', { kind: 'Pod' }, 'kind: expected "Spicepod"'],
    [
      'engine not built yet',
      { datasets: [{ name: 'a', from: 'file:a', acceleration: { engine: 'duckdb' } }] },
      "datasets[0].acceleration.engine: acceleration engine 'duckdb' is not supported yet",
    ],
    [
      'file mode not built yet',
      { datasets: [{ name: 'a', from: 'file:a', acceleration: { mode: 'file' } }] },
      "datasets[0].acceleration.mode: acceleration mode 'file' is not supported yet",
    ],
    [
      'unknown acceleration key',
      { datasets: [{ name: 'a', from: 'file:a', acceleration: { enable: true } }] },
      'datasets[0].acceleration.enable: unknown key',
    ],
    [
      'body limit type',
      { runtime: { http: { max_body_bytes: 'big' } } },
      'runtime.http.max_body_bytes: expected number, received string',
    ],
    ['unknown runtime key', { runtime: { htp: {} } }, 'runtime.htp: unknown key'],
    [
      'duplicate dataset',
      {
        datasets: [
          { name: 'a', from: 'file:a' },
          { name: 'A', from: 'file:b' },
        ],
      },
      "datasets[1].name: dataset 'A' is already declared at datasets[0]",
    ],
    [
      'file format',
      { datasets: [{ name: 'a', from: 'file:a.xml', params: { file_format: 'xml' } }] },
      "datasets[0].params.file_format: file format 'xml' is not supported yet",
    ],
  ];
  for (const [what, doc, expected] of cases) {
    it(what, () => assert.equal(problem(doc), expected));
  }

  it('accepts an s3 source with its params, without warning about them', () => {
    const params = {
      s3_endpoint: 'http://127.0.0.1:9000',
      s3_region: 'eu-west-1',
      s3_auth: 'key',
      s3_key: 'AKIA',
      s3_secret: 'hunter2',
      allow_http: true,
      client_timeout: '5s',
      other: 1,
    };
    const m = parseManifest({ ...base, datasets: [{ name: 'a', from: 's3://b/k/', params }] }, '/');
    assert.deepEqual(m.warnings, ['datasets[0].params.other: not supported yet; ignored']);
    assert.equal(m.datasets[0]?.params?.s3_secret, 'hunter2');
    assert.equal(m.datasets[0]?.params?.allow_http, 'true');
  });

  it('lists every problem, one per line', () => {
    const message = problem({ name: undefined, datasets: [{ name: 'a', from: 'ftp:x' }] });
    assert.deepEqual(message.split('\n'), [
      'name: expected string (missing)',
      "datasets[0].from: unknown connector 'ftp'",
    ]);
  });
});

describe('CSV and JSON datasets', () => {
  const one = (dataset: object) => parseManifest({ ...base, datasets: [{ name: 'd', ...dataset }] }, '/b', {});

  it('accepts the csv_* params and typed columns, and passes them on as strings', () => {
    const m = one({
      from: 'file:data.csv',
      params: { file_format: 'csv', csv_has_header: false, csv_delimiter: ';', csv_schema_infer_max_records: 50 },
      columns: [{ name: 'price', type: 'decimal(10,2)', description: 'in EUR' }, { name: 'id' }],
    });
    assert.deepEqual(m.datasets[0], {
      name: 'd',
      from: 'file:data.csv',
      accelerated: false,
      params: { file_format: 'csv', csv_has_header: 'false', csv_delimiter: ';', csv_schema_infer_max_records: '50' },
      columns: [
        { name: 'price', type: 'decimal(10,2)' },
        { name: 'id', type: undefined },
      ],
    });
    assert.deepEqual(m.warnings, []);
  });

  it('warns about csv_* params on a JSON dataset and Spice column keys floe does not read', () => {
    const m = one({
      from: 'file:events.jsonl',
      params: { csv_delimiter: ';' },
      columns: [{ name: 'body', embeddings: [{ from: 'e' }] }],
    });
    assert.deepEqual(m.warnings, [
      'datasets[0].columns[0].embeddings: not supported yet; ignored',
      'datasets[0].params.csv_delimiter: ignored: the dataset is not CSV',
    ]);
  });

  const cases: [string, object, string][] = [
    [
      'two-character delimiter',
      { params: { csv_delimiter: '||' } },
      "params.csv_delimiter: expected one character, got '||'",
    ],
    ['header flag', { params: { csv_has_header: 'yes' } }, "params.csv_has_header: expected true or false, got 'yes'"],
    ['quote', { params: { csv_quote: '' } }, "params.csv_quote: expected one character, got ''"],
    [
      'infer count',
      { params: { csv_schema_infer_max_records: 0 } },
      "params.csv_schema_infer_max_records: expected a positive integer, got '0'",
    ],
    ['column type', { columns: [{ name: 'a', type: 'money' }] }, "columns[0].type: unknown column type 'money'"],
    [
      'typed column on Parquet',
      { from: 'file:t.parquet', columns: [{ name: 'a', type: 'bigint' }] },
      'columns[0].type: a declared type is read for CSV and JSON datasets only',
    ],
    ['column without a name', { columns: [{ type: 'bigint' }] }, 'columns[0].name: expected string (missing)'],
  ];
  for (const [what, doc, expected] of cases) {
    it(what, () => {
      const message = problem({ datasets: [{ name: 'd', from: 'file:a.csv', ...doc }] });
      assert.ok(message.startsWith(`datasets[0].${expected}`), message);
    });
  }
});
