// API keys on the Iceberg routes: 401 NotAuthorizedException in the Iceberg envelope without or with a wrong key
// (404s and 406s included), both header forms accepted, iceberg-js with bearer and header auth.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IcebergError, IcebergRestCatalog } from 'iceberg-js';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const KEY = 'ice-k3y-Delta-0004';
let srv: TestServer;

before(async () => {
  const file = await writePeople(join(await makeTempDir(), 'people.parquet'));
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }], {
    runtime: { auth: { 'api-key': { enabled: true, keys: [`${KEY}:ro`] } } },
  });
});
after(() => srv.close());

const PATHS: [string, string, number][] = [
  ['GET', '/v1/iceberg/config', 200],
  ['GET', '/v1/iceberg/v1/namespaces', 200],
  ['GET', '/v1/namespaces?parent=floe', 200],
  ['HEAD', '/v1/iceberg/namespaces/floe%1Fpublic', 204],
  ['GET', '/v1/iceberg/v1/namespaces/floe%1Fpublic/tables/people', 200],
  ['GET', '/v1/iceberg/v1/namespaces/nope', 404],
  ['POST', '/v1/iceberg/v1/namespaces', 406],
];

describe('Iceberg REST with API keys', () => {
  for (const [method, path, expected] of PATHS) {
    it(`${method} ${path}: 401 without or with a wrong key, ${expected} with one (Bearer or X-API-Key)`, async () => {
      const wrongs: Record<string, string>[] = [
        {},
        { Authorization: 'Bearer wrong' },
        { 'X-API-Key': 'wrong' },
        { Authorization: KEY },
      ];
      for (const headers of wrongs) {
        const res = await fetch(`${srv.base}${path}`, { method, headers });
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.equal(res.headers.get('content-type'), 'application/json');
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
        const text = await res.text();
        if (method !== 'HEAD') {
          assert.deepEqual(JSON.parse(text), {
            error: { message: 'Unauthorized', type: 'NotAuthorizedException', code: 401 },
          });
        }
      }
      const rights: Record<string, string>[] = [{ Authorization: `Bearer ${KEY}` }, { 'X-API-Key': KEY }];
      for (const headers of rights) {
        const res = await fetch(`${srv.base}${path}`, { method, headers });
        assert.equal(res.status, expected, JSON.stringify(headers));
        assert.equal(res.headers.get('content-type'), 'application/json');
      }
    });
  }

  it('iceberg-js passes the key as a bearer token or a custom header', async () => {
    const base = `${srv.base}/v1/iceberg`;
    for (const auth of [
      { type: 'bearer', token: KEY },
      { type: 'header', name: 'X-API-Key', value: KEY },
    ] as const) {
      const catalog = new IcebergRestCatalog({ baseUrl: base, auth });
      assert.deepEqual(await catalog.listTables({ namespace: ['floe', 'public'] }), [
        { namespace: ['floe', 'public'], name: 'people' },
      ]);
      assert.equal(await catalog.tableExists({ namespace: ['floe', 'public'], name: 'people' }), true);
    }
    const anonymous = new IcebergRestCatalog({ baseUrl: base });
    await assert.rejects(anonymous.listNamespaces(), (e: unknown) => {
      assert.ok(e instanceof IcebergError);
      assert.equal(e.status, 401);
      assert.equal(e.icebergType, 'NotAuthorizedException');
      return true;
    });
  });

  it('the other routes still refuse in plain text', async () => {
    const res = await fetch(`${srv.base}/v1/datasets`);
    assert.equal(res.status, 401);
    assert.equal(await res.text(), 'Unauthorized');
    assert.equal((await fetch(`${srv.base}/health`)).status, 200);
  });
});

describe('Iceberg REST over the rate limit', () => {
  it('429 SlowDownException in the envelope, with Retry-After', async () => {
    const limited = await startTestServer([], {
      runtime: { http: { rate_limit: { enabled: true, requests_per_second: 0.05, burst: 2 } } },
    });
    try {
      const statuses: number[] = [];
      let last: Response | null = null;
      for (let i = 0; i < 3; i++) {
        last = await fetch(`${limited.base}/v1/iceberg/v1/namespaces`);
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal(last?.headers.get('content-type'), 'application/json');
      assert.match(last?.headers.get('retry-after') ?? '', /^\d+$/);
      assert.deepEqual(await last?.json(), {
        error: { message: 'Too Many Requests', type: 'SlowDownException', code: 429 },
      });
    } finally {
      await limited.close();
    }
  });
});
