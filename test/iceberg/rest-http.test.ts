// The Iceberg REST routes over raw HTTP: the three prefixes, %1F namespaces, pagination, every error of §7.3 in
// the Iceberg envelope (status, type, code, Content-Type, no stack), 405/406, snapshots=refs, ETag and 304.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { FAKE_METADATA, FAKE_METADATA_LOCATION, fakeSource, wideSource } from './rest-fake-source.js';

let srv: TestServer;

before(async () => {
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer(
    [
      { name: 'people', from: `file:${file}` },
      { name: 'gone', from: 'file:/nonexistent/floe-iceberg-test/gone.parquet' },
    ],
    { icebergSources: [fakeSource(), wideSource('wide', 5)] },
  );
});
after(() => srv.close());

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

async function call(path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${srv.base}${path}`, { method, headers });
  const text = await res.text();
  assert.equal(res.headers.get('content-type'), 'application/json', `${method} ${path}: Content-Type`);
  return { status: res.status, headers: res.headers, text, json: text === '' ? undefined : JSON.parse(text) };
}

/** Asserts the spec's error envelope (exactly message, type, code: `additionalProperties: false`, no stack). */
async function expectError(path: string, status: number, type: string, method = 'GET'): Promise<string> {
  const a = await call(path, method);
  assert.equal(a.status, status, `${method} ${path}: ${a.text}`);
  const { error } = a.json as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'type']);
  assert.equal(error.type, type);
  assert.equal(error.code, status);
  assert.doesNotMatch(a.text, /\bat |\.js|secret|nonexistent/);
  return error.message as string;
}

const PREFIXES = ['/v1/iceberg', '/v1/iceberg/v1', '/v1'];

describe('Iceberg REST over HTTP', () => {
  it('serves the same answers under /v1/iceberg, /v1/iceberg/v1 and the root /v1', async () => {
    const paths = ['/config', '/namespaces', '/namespaces?parent=floe', '/namespaces/floe%1Fpublic/tables'];
    for (const path of [...paths, '/namespaces/lake%1Fsales/tables/orders', '/namespaces/floe%1Fpublic']) {
      const answers = await Promise.all(PREFIXES.map((p) => call(`${p}${path}`)));
      for (const a of answers) assert.equal(a.status, 200, path);
      assert.equal(answers[1]!.text, answers[0]!.text, path);
      assert.equal(answers[2]!.text, answers[0]!.text, path);
    }
    for (const p of PREFIXES) assert.equal((await call(`${p}/namespaces/floe%1Fpublic`, 'HEAD')).status, 204);
  });

  it('config: the spec endpoint templates, no prefix; warehouse accepted', async () => {
    const config = (await call('/v1/iceberg/v1/config?warehouse=anything')).json;
    assert.deepEqual(config, {
      defaults: {},
      overrides: {},
      endpoints: [
        'GET /v1/{prefix}/namespaces',
        'HEAD /v1/{prefix}/namespaces/{namespace}',
        'GET /v1/{prefix}/namespaces/{namespace}',
        'GET /v1/{prefix}/namespaces/{namespace}/tables',
        'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
        'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
      ],
    });
  });

  it('namespaces: parent split on %1F, empty parent = absent, 2 levels = [], 3 levels or unknown = 404', async () => {
    const top = { namespaces: [['floe'], ['lake'], ['wide']] };
    assert.deepEqual((await call('/v1/iceberg/namespaces')).json, top);
    assert.deepEqual((await call('/v1/iceberg/namespaces?parent=')).json, top);
    assert.deepEqual((await call('/v1/iceberg/namespaces?parent=lake')).json, {
      namespaces: [
        ['lake', 'empty'],
        ['lake', 'sales'],
      ],
    });
    assert.deepEqual((await call('/v1/iceberg/namespaces?parent=lake%1Fsales')).json, { namespaces: [] });
    await expectError('/v1/iceberg/namespaces?parent=lake%1Fsales%1Fx', 404, 'NoSuchNamespaceException');
    await expectError('/v1/iceberg/namespaces?parent=lake%1Fnope', 404, 'NoSuchNamespaceException');
    await expectError('/v1/iceberg/namespaces?parent=nope', 404, 'NoSuchNamespaceException');
    await expectError('/v1/iceberg/namespaces?parent=lake%1F', 400, 'BadRequestException');
  });

  it('namespace and table paths: %1F levels, empty levels 400, HEAD 204/404 without a body', async () => {
    assert.deepEqual((await call('/v1/namespaces/lake%1fsales')).json, {
      namespace: ['lake', 'sales'],
      properties: {},
    });
    assert.deepEqual((await call('/v1/namespaces/lake')).json, { namespace: ['lake'], properties: {} });
    await expectError('/v1/namespaces/lake%1F%1Fsales', 400, 'BadRequestException');
    await expectError('/v1/namespaces/lake%1Fsales%1Fdeep', 404, 'NoSuchNamespaceException');
    await expectError('/v1/namespaces/lake%ZZ', 400, 'BadRequestException');
    for (const [path, status] of [
      ['/v1/namespaces/lake%1Fsales', 204],
      ['/v1/namespaces/lake%1Fnope', 404],
      ['/v1/namespaces/lake%1Fsales/tables/orders', 204],
      ['/v1/namespaces/lake%1Fsales/tables/nope', 404],
      ['/v1/namespaces/nope%1Fsales/tables/orders', 404],
      ['/v1/namespaces/floe%1Fpublic/tables/people', 204],
    ] as const) {
      const a = await call(path, 'HEAD');
      assert.equal(a.status, status, path);
      assert.equal(a.text, '');
    }
  });

  it('list tables and load table: NoSuchNamespace vs NoSuchTable', async () => {
    assert.deepEqual((await call('/v1/namespaces/lake/tables')).json, { identifiers: [] });
    await expectError('/v1/namespaces/nope/tables', 404, 'NoSuchNamespaceException');
    await expectError('/v1/namespaces/lake%1Fnope/tables', 404, 'NoSuchNamespaceException');
    await expectError('/v1/namespaces/lake%1Fnope/tables/orders', 404, 'NoSuchNamespaceException');
    const message = await expectError('/v1/namespaces/lake%1Fsales/tables/nope', 404, 'NoSuchTableException');
    assert.equal(message, 'Table does not exist: lake.sales.nope');
    await expectError('/v1/namespaces/lake/tables/orders', 404, 'NoSuchTableException');
  });

  it('pagination: everything without pageToken; pages of pageSize with an opaque token, null at the end', async () => {
    const all = (await call('/v1/namespaces?parent=wide')).json as Record<string, unknown>;
    assert.equal((all.namespaces as unknown[]).length, 5);
    assert.equal('next-page-token' in all, false);
    assert.equal(
      ((await call('/v1/namespaces?parent=wide&pageSize=2')).json as { namespaces: [] }).namespaces.length,
      5,
    );
    const seen: string[][] = [];
    let token = '';
    for (const expected of [2, 2, 1]) {
      const page = (await call(`/v1/namespaces?parent=wide&pageSize=2&pageToken=${encodeURIComponent(token)}`))
        .json as { namespaces: string[][]; 'next-page-token': string | null };
      assert.equal(page.namespaces.length, expected);
      seen.push(...page.namespaces);
      if (expected === 1) assert.equal(page['next-page-token'], null);
      else token = page['next-page-token'] as string;
    }
    assert.deepEqual(seen, all.namespaces);
    const tables = (await call('/v1/namespaces/lake%1Fsales/tables?pageToken=&pageSize=1')).json as Record<
      string,
      unknown
    >;
    assert.deepEqual(tables.identifiers, [{ namespace: ['lake', 'sales'], name: 'broken' }]);
    assert.equal(typeof tables['next-page-token'], 'string');
    for (const bad of ['pageSize=0', 'pageSize=-1', 'pageSize=abc', 'pageSize=1.5', 'pageToken=garbage']) {
      await expectError(`/v1/namespaces?${bad}`, 400, 'BadRequestException');
    }
  });

  it('load table: metadata-location and metadata as the source gave them; snapshots=refs keeps referenced ones', async () => {
    const path = '/v1/iceberg/v1/namespaces/lake%1Fsales/tables/orders';
    const all = (await call(path)).json as Record<string, unknown>;
    assert.deepEqual(all, { 'metadata-location': FAKE_METADATA_LOCATION, metadata: FAKE_METADATA, config: {} });
    const refs = (await call(`${path}?snapshots=refs`)).json as { metadata: typeof FAKE_METADATA };
    assert.deepEqual(
      refs.metadata.snapshots?.map((s) => s['snapshot-id']),
      [1, 3],
    );
    assert.deepEqual((await call(`${path}?snapshots=all`)).json, all);
    await expectError(`${path}?snapshots=some`, 400, 'BadRequestException');
    const dataset = (await call('/v1/namespaces/floe%1Fpublic/tables/people')).json as Record<string, unknown>;
    assert.equal(dataset['metadata-location'], null);
  });

  it('ETag on load table; If-None-Match with it answers 304 without a body', async () => {
    for (const path of ['/v1/namespaces/lake%1Fsales/tables/orders', '/v1/namespaces/floe%1Fpublic/tables/people']) {
      const first = await call(path);
      const etag = first.headers.get('etag');
      assert.match(etag ?? '', /^"[0-9a-f]{32}"$/);
      assert.equal((await call(path)).headers.get('etag'), etag);
      const again = await call(path, 'GET', { 'If-None-Match': etag! });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
      assert.equal((await call(path, 'GET', { 'If-None-Match': `"other", W/${etag}` })).status, 304);
      assert.equal((await call(path, 'GET', { 'If-None-Match': '"other"' })).status, 200);
    }
    const refs = await call('/v1/namespaces/lake%1Fsales/tables/orders?snapshots=refs');
    assert.notEqual(
      refs.headers.get('etag'),
      (await call('/v1/namespaces/lake%1Fsales/tables/orders')).headers.get('etag'),
    );
  });

  it('500 InternalServerError: a failing source and a dataset that failed to load, reason code only', async () => {
    const broken = await expectError('/v1/namespaces/lake%1Fsales/tables/broken', 500, 'InternalServerError');
    assert.match(broken, /^Internal Server Error: internal \(ref [\w-]+\)$/);
    const gone = await expectError('/v1/namespaces/floe%1Fpublic/tables/gone', 500, 'InternalServerError');
    assert.equal(gone, 'Internal Server Error: dataset.source');
    assert.equal((await call('/v1/namespaces/floe%1Fpublic/tables/gone', 'HEAD')).status, 204);
  });

  it('writes: 406 UnsupportedOperationException; other methods 405 with Allow; unknown paths 404', async () => {
    for (const [method, path] of [
      ['POST', '/v1/iceberg/v1/namespaces'],
      ['DELETE', '/v1/iceberg/v1/namespaces/lake%1Fsales'],
      ['POST', '/v1/iceberg/namespaces/lake%1Fsales/tables'],
      ['POST', '/v1/namespaces/lake%1Fsales/tables/orders'],
      ['DELETE', '/v1/namespaces/lake%1Fsales/tables/orders'],
      ['POST', '/v1/iceberg/v1/tables/rename'],
      ['POST', '/v1/iceberg/v1/transactions/commit'],
      ['POST', '/v1/iceberg/namespaces/lake%1Fsales/properties'],
    ]) {
      const message = await expectError(path!, 406, 'UnsupportedOperationException', method);
      assert.match(message, /through SQL/);
    }
    for (const [method, path, allow] of [
      ['PUT', '/v1/iceberg/namespaces', 'GET'],
      ['PATCH', '/v1/namespaces/lake%1Fsales', 'GET, HEAD'],
      ['HEAD', '/v1/iceberg/config', 'GET'],
      ['PUT', '/v1/iceberg/v1/namespaces/lake%1Fsales/tables/orders', 'GET, HEAD'],
    ] as const) {
      const a = await call(path, method);
      assert.equal(a.status, 405, `${method} ${path}`);
      assert.equal(a.headers.get('allow'), allow);
    }
    await expectError('/v1/iceberg/v1/namespaces/lake%1Fsales/views', 404, 'NotFoundException');
    await expectError('/v1/iceberg/nowhere', 404, 'NotFoundException');
  });

  it('leaves the other routes alone', async () => {
    assert.equal((await fetch(`${srv.base}/v1/datasets`)).status, 200);
    const res = await fetch(srv.sql, { method: 'POST', body: 'SELECT count(*) AS n FROM people' });
    assert.deepEqual(await res.json(), [{ n: 5 }]);
  });
});
