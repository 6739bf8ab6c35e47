// The dataset routes over real HTTP (contract §4.5, §7.5), on a recording `Datasets`: every status and body.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createAuthenticator } from '../../server/auth/authenticator.js';
import { DEFAULT_CORS } from '../../server/config/cors-config.js';
import {
  DatasetNotFoundError,
  DatasetRequestError,
  type DatasetState,
  type Datasets,
  NotAcceleratedError,
  type RefreshOverrides,
} from '../../server/datasets/datasets.js';
import { createRequestGate } from '../../server/http/request-gate.js';
import { registerRoutes } from '../../server/http/routes.js';
import { listenUws, type UwsServer } from '../../server/http/uws-app.js';
import { createQueryService } from '../../server/runtime/query-service.js';

const STATES: DatasetState[] = [
  {
    name: 'Trips',
    from: 'file:data/trips.parquet',
    accelerated: true,
    status: 'Ready',
    error: null,
    errorMessage: null,
    properties: { search: 'unsupported' },
  },
  {
    name: 'zones',
    from: 's3://bucket/zones/',
    accelerated: false,
    status: 'Error',
    error: { category: 'dataset', type: 'auth', code: 'dataset.auth' },
    errorMessage: 'Dataset zones (s3): access denied, "InvalidAccessKeyId"',
    properties: { search: 'unsupported' },
  },
];

/** Answers like a runtime with the two datasets above; records what the routes asked. */
class RecordingDatasets implements Datasets {
  readonly settled = true;
  calls: { op: string; name: string; arg: unknown }[] = [];
  failWith: Error | null = null;
  list() {
    return STATES;
  }
  #find(name: string): DatasetState {
    const d = STATES.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (d === undefined) throw new DatasetNotFoundError(name);
    return d;
  }
  async refresh(name: string, overrides: RefreshOverrides = {}) {
    this.calls.push({ op: 'refresh', name, arg: overrides });
    const d = this.#find(name);
    if (!d.accelerated) throw new NotAcceleratedError(d.name);
    if (this.failWith !== null) throw this.failWith;
    return d.name;
  }
  async setRefreshSql(name: string, sql: string) {
    this.calls.push({ op: 'patch', name, arg: sql });
    const d = this.#find(name);
    if (sql.includes('nope')) throw new DatasetRequestError(`column "nope" does not exist`);
    return d.name;
  }
}

const datasets = new RecordingDatasets();
let server: UwsServer;
let base: string;

before(async () => {
  const auth = createAuthenticator({
    keys: [
      { secret: 'reader', canWrite: false },
      { secret: 'writer', canWrite: true },
    ],
  });
  server = await listenUws(
    (app) =>
      registerRoutes(app, {
        phase: () => 'ready',
        service: createQueryService({
          pool: () => null,
          unavailable: () => ({ kind: 'unavailable', message: 'not ready' }),
          resultsCache: null,
          maxConcurrent: 1,
          maxQueued: 1,
        }),
        cacheEnabled: false,
        maxBodyBytes: 4096,
        datasets: () => datasets,
        gate: createRequestGate({ auth, limiter: null, cors: DEFAULT_CORS }),
        track: () => {},
      }),
    '127.0.0.1',
    0,
  );
  base = `http://127.0.0.1:${server.port}`;
});
after(() => server.closeAll());
beforeEach(() => {
  datasets.calls = [];
  datasets.failWith = null;
});

async function call(method: string, path: string, body?: string, key = 'writer') {
  const res = await fetch(base + path, { method, body, headers: { 'X-API-Key': key } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('GET /v1/datasets', () => {
  it('is a bare JSON array without status fields by default', async () => {
    const res = await call('GET', '/v1/datasets', undefined, 'reader');
    assert.equal(res.status, 200);
    assert.equal(res.type, 'application/json');
    assert.deepEqual(JSON.parse(res.text), [
      {
        from: 'file:data/trips.parquet',
        name: 'Trips',
        replication_enabled: false,
        acceleration_enabled: true,
        properties: { search: 'unsupported' },
      },
      {
        from: 's3://bucket/zones/',
        name: 'zones',
        replication_enabled: false,
        acceleration_enabled: false,
        properties: { search: 'unsupported' },
      },
    ]);
  });

  it('adds status, error and error_message with status=true', async () => {
    const items = JSON.parse((await call('GET', '/v1/datasets?status=true')).text);
    assert.deepEqual(
      items.map((d: Record<string, unknown>) => [d.name, d.status, d.error, d.error_message]),
      [
        ['Trips', 'Ready', null, null],
        ['zones', 'Error', { category: 'dataset', type: 'auth', code: 'dataset.auth' }, STATES[1]!.errorMessage],
      ],
    );
  });

  it('filters by source (equal to from)', async () => {
    const items = JSON.parse((await call('GET', '/v1/datasets?source=s3%3A%2F%2Fbucket%2Fzones%2F')).text);
    assert.deepEqual(
      items.map((d: { name: string }) => d.name),
      ['zones'],
    );
    assert.deepEqual(JSON.parse((await call('GET', '/v1/datasets?source=s3')).text), []);
  });

  it('writes CSV with the contract columns, error as its code, quoted where needed', async () => {
    const res = await call('GET', '/v1/datasets?format=csv&status=true');
    assert.equal(res.status, 200);
    assert.equal(res.type, 'text/csv; charset=utf-8');
    assert.equal(
      res.text,
      'from,name,replication_enabled,acceleration_enabled,status,error,error_message\n' +
        'file:data/trips.parquet,Trips,false,true,Ready,,\n' +
        's3://bucket/zones/,zones,false,false,Error,dataset.auth,"Dataset zones (s3): access denied, ""InvalidAccessKeyId"""\n',
    );
    const plain = await call('GET', '/v1/datasets?format=CSV');
    assert.equal(plain.text.split('\n')[1], 'file:data/trips.parquet,Trips,false,true,,,');
  });

  it('answers 400 for a bad format or status, 401 without a key, 405 for other methods', async () => {
    assert.deepEqual(await call('GET', '/v1/datasets?format=xml'), {
      status: 400,
      type: 'application/json',
      text: JSON.stringify({ message: "invalid format 'xml': expected json or csv" }),
    });
    assert.equal((await call('GET', '/v1/datasets?status=yes')).status, 400);
    assert.equal((await call('GET', '/v1/datasets', undefined, 'wrong')).status, 401);
    assert.equal((await call('DELETE', '/v1/datasets')).status, 405);
  });
});

describe('POST /v1/datasets/{name}/acceleration/refresh', () => {
  const refresh = (name: string, body?: string, key?: string) =>
    call('POST', `/v1/datasets/${name}/acceleration/refresh`, body, key);

  it('answers 201 with the configured name, without a body and with an empty one', async () => {
    for (const body of [undefined, '', '  ']) {
      const res = await refresh('trips', body);
      assert.equal(res.status, 201);
      assert.equal(res.type, 'application/json');
      assert.deepEqual(JSON.parse(res.text), { message: 'Dataset refresh triggered for Trips.' });
    }
    assert.deepEqual(datasets.calls[0], { op: 'refresh', name: 'trips', arg: {} });
  });

  it('passes each override for this refresh only', async () => {
    const body = { refresh_sql: 'SELECT a FROM trips WHERE a > 1', refresh_mode: 'append', refresh_jitter_max: '2s' };
    assert.equal((await refresh('Trips', JSON.stringify(body))).status, 201);
    assert.deepEqual(datasets.calls[0]?.arg, {
      refreshSql: 'SELECT a FROM trips WHERE a > 1',
      refreshMode: 'append',
      jitterMaxMs: 2000,
    });
  });

  it('refuses a malformed body or override with 400 and a message, before anything starts', async () => {
    const cases: [string, RegExp][] = [
      ['{"refresh_mode": "full"', /^Invalid JSON body: /],
      ['[1]', /expected an object/],
      ['{"refresh_sq": "SELECT 1"}', /Unknown field 'refresh_sq'/],
      ['{"refresh_mode": "changes"}', /refresh_mode must be 'full' or 'append'/],
      ['{"refresh_jitter_max": "soon"}', /refresh_jitter_max must be a duration/],
      ['{"refresh_sql": 5}', /refresh_sql must be a non-empty string/],
    ];
    for (const [body, message] of cases) {
      const res = await refresh('trips', body);
      assert.equal(res.status, 400, body);
      assert.match(JSON.parse(res.text).message, message);
    }
    assert.equal(datasets.calls.length, 0);
  });

  it('answers 404 for an unknown dataset, 400 for one without acceleration, 500 with the reason', async () => {
    assert.deepEqual(await refresh('nope'), {
      status: 404,
      type: 'application/json',
      text: JSON.stringify({ message: 'Dataset nope not found' }),
    });
    assert.deepEqual(JSON.parse((await refresh('ZONES')).text), {
      message: 'Dataset zones does not have acceleration enabled',
    });
    datasets.failWith = new Error('the loader thread could not start');
    const failed = await refresh('trips');
    assert.equal(failed.status, 500);
    assert.match(
      JSON.parse(failed.text).message,
      /^Failed to refresh the dataset trips: the loader thread could not start \(ref [0-9a-f]{8}\)$/,
    );
  });

  it('needs write access (403 JSON for a read-only key) and answers 405 to other methods', async () => {
    assert.deepEqual(await refresh('trips', undefined, 'reader'), {
      status: 403,
      type: 'application/json',
      text: JSON.stringify({ message: 'API key does not allow write access' }),
    });
    assert.equal(datasets.calls.length, 0);
    assert.equal((await call('GET', '/v1/datasets/trips/acceleration/refresh')).status, 405);
  });
});

describe('PATCH /v1/datasets/{name}/acceleration', () => {
  const patch = (name: string, body?: string, key?: string) =>
    call('PATCH', `/v1/datasets/${name}/acceleration`, body, key);

  it('stores the refresh SQL: 200 with a message', async () => {
    const res = await patch('TRIPS', JSON.stringify({ refresh_sql: 'SELECT * FROM trips WHERE a > 2' }));
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.text), { message: 'Refresh SQL updated for Trips.' });
    assert.deepEqual(datasets.calls, [{ op: 'patch', name: 'TRIPS', arg: 'SELECT * FROM trips WHERE a > 2' }]);
  });

  it('answers 400 for SQL that does not bind, a missing refresh_sql or a bad body; 404; 403', async () => {
    const bad = await patch('trips', JSON.stringify({ refresh_sql: 'SELECT nope FROM trips' }));
    assert.equal(bad.status, 400);
    assert.deepEqual(JSON.parse(bad.text), { message: 'column "nope" does not exist' });
    assert.equal((await patch('trips', '{}')).status, 400);
    assert.equal((await patch('trips', 'refresh_sql=1')).status, 400);
    assert.equal((await patch('nope', JSON.stringify({ refresh_sql: 'SELECT 1' }))).status, 404);
    assert.equal((await patch('trips', JSON.stringify({ refresh_sql: 'SELECT 1' }), 'reader')).status, 403);
    assert.equal((await call('PUT', '/v1/datasets/trips/acceleration')).status, 405);
  });
});
