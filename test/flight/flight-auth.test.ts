// Flight with API keys: bearer and x-api-key metadata, Rust's basic-auth Handshake, UNAUTHENTICATED with HTTP's
// body, PERMISSION_DENIED for a read-only key's write, and INSERT into an Iceberg table through DoPut.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createFlightSqlClient } from '@lakehouse-rs/flight-sql-client';
import * as arrow from 'apache-arrow';
import { decodeDoPutUpdate } from '../../server/flight/flight-protos.js';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { descriptor, fetchTable, meta, type RawClient, rawClient, rowsOf } from './flight-client.js';

const RO_KEY = 'ro-fl1ght-key-0001';
const RW_KEY = 'rw-fl1ght-key-0002';
let srv: TestServer;
let port: number;
let raw: RawClient;
let wh: string;

before(async () => {
  const dir = await makeTempDir('floe-flight-auth-');
  const file = await writePeople(join(dir, 'people.parquet'));
  wh = await makeTempDir('floe-flight-wh-');
  srv = await startTestServer([{ name: 'people', from: `file:${file}` }], {
    runtime: { auth: { 'api-key': { enabled: true, keys: [`${RO_KEY}:ro`, `${RW_KEY}:rw`] } } },
    catalogs: [{ from: `iceberg:${pathToFileURL(wh).href}`, name: 'lake', access: 'read_write' }],
    flight: { host: '127.0.0.1', port: 0 },
  });
  port = srv.server.flight?.port ?? 0;
  raw = rawClient(port);
});
after(async () => {
  raw.close();
  await srv.close();
  await rm(wh, { recursive: true, force: true });
});

const COUNT = 'SELECT count(*) AS n FROM people';
const rejectsWith = (p: Promise<unknown>, code: number, details: string | RegExp) =>
  assert.rejects(p, (e: { code: number; details: string }) => {
    assert.equal(e.code, code, e.details);
    if (typeof details === 'string') assert.equal(e.details, details);
    else assert.match(e.details, details);
    return true;
  });

describe('Flight auth', () => {
  it('no key, a wrong key, another scheme: UNAUTHENTICATED "Unauthorized" (HTTP 401 body)', async () => {
    const http = await fetch(srv.sql, { method: 'POST', body: COUNT });
    assert.deepEqual([http.status, await http.text()], [401, 'Unauthorized']);
    for (const m of [
      {},
      { 'x-api-key': 'nope' },
      { authorization: 'Bearer nope' },
      { authorization: RO_KEY },
    ] as Record<string, string>[]) {
      await rejectsWith(fetchTable(raw, COUNT, meta(m)), 16, 'Unauthorized');
    }
  });

  it('a key as bearer or x-api-key', async () => {
    for (const m of [{ authorization: `Bearer ${RO_KEY}` }, { 'x-api-key': RW_KEY }] as Record<string, string>[]) {
      assert.deepEqual(rowsOf(await fetchTable(raw, COUNT, meta(m))), [{ n: 5 }]);
    }
  });

  it("Rust's client: Handshake with basic auth (password = key), then bearer", async () => {
    const client = await createFlightSqlClient({
      host: '127.0.0.1',
      port,
      tls: false,
      headers: [],
      username: 'anyone',
      password: RO_KEY,
    });
    assert.deepEqual(rowsOf(arrow.tableFromIPC(await client.query(COUNT))), [{ n: 5 }]);
    // (A refused handshake is not tried with this client: it panics in its tokio thread and never settles.)
    const withToken = await createFlightSqlClient({ host: '127.0.0.1', port, tls: false, headers: [], token: RW_KEY });
    assert.equal(arrow.tableFromIPC(await withToken.getCatalogs()).numRows, 2);
  });

  const handshake = (basic: string) =>
    new Promise<{ header: unknown; payload: string }>((resolve, reject) => {
      const call = raw.Handshake(meta({ authorization: basic }));
      let header: unknown;
      call.on('metadata', (m: { get(k: string): unknown[] }) => {
        header = m.get('authorization')[0];
      });
      call.on('data', (d: { payload: Buffer }) => resolve({ header, payload: d.payload.toString() }));
      call.on('error', reject);
      call.write({ protocolVersion: 0, payload: Buffer.alloc(0) });
      call.end();
    });
  const basic = (password: string) => `Basic ${Buffer.from(`u:${password}`).toString('base64')}`;

  it('Handshake answers the key as the bearer token, in metadata and payload; a wrong password is refused', async () => {
    const { header, payload } = await handshake(basic(RW_KEY));
    assert.deepEqual([header, payload], [`Bearer ${RW_KEY}`, RW_KEY]);
    await rejectsWith(handshake(basic('wrong')), 16, 'Unauthorized');
  });
});

describe('Flight writes (CommandStatementUpdate through DoPut)', () => {
  const update = (sql: string, key: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const call = raw.DoPut(meta({ 'x-api-key': key }));
      call.on('data', (d: { appMetadata: Buffer }) => resolve(decodeDoPutUpdate(d.appMetadata)));
      call.on('error', reject);
      call.write({ flightDescriptor: descriptor({ name: 'CommandStatementUpdate', fields: { query: sql } }) });
      call.end();
    });

  it('an INSERT into an Iceberg table answers DoPutUpdateResult with the row count', async () => {
    await update('CREATE SCHEMA lake.web', RW_KEY);
    await update('CREATE TABLE lake.web.visits (id bigint, page text)', RW_KEY);
    assert.equal(await update("INSERT INTO lake.web.visits VALUES (1, 'home'), (2, 'about')", RW_KEY), 2);
    const rows = await fetchTable(
      raw,
      'SELECT id, page FROM lake.web.visits ORDER BY id',
      meta({ 'x-api-key': RO_KEY }),
    );
    assert.deepEqual(rowsOf(rows), [
      { id: 1, page: 'home' },
      { id: 2, page: 'about' },
    ]);
  });

  it('a read-only key writing: PERMISSION_DENIED with HTTP 403 message', async () => {
    await rejectsWith(
      update("INSERT INTO lake.web.visits VALUES (3, 'x')", RO_KEY),
      7,
      'API key does not allow write access',
    );
    const rows = await fetchTable(raw, 'SELECT count(*) AS n FROM lake.web.visits', meta({ 'x-api-key': RO_KEY }));
    assert.deepEqual(rowsOf(rows), [{ n: 2 }]);
  });
});
