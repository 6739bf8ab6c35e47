// Flight under runtime.http.rate_limit: RESOURCE_EXHAUSTED past the burst, one budget shared with HTTP, per address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { peerAddress } from '../../server/flight/flight-auth.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { fetchTable, type RawClient, rawClient, rowsOf } from './flight-client.js';

let srv: TestServer;
let raw: RawClient;

before(async () => {
  srv = await startTestServer([], {
    runtime: { http: { rate_limit: { enabled: true, requests_per_second: 0.05, burst: 4 } } },
    flight: { host: '127.0.0.1', port: 0 },
  });
  raw = rawClient(srv.server.flight?.port ?? 0);
});
after(async () => {
  raw.close();
  await srv.close();
});

describe('Flight rate limit', () => {
  it('a client address has one budget over HTTP and Flight; past it Flight answers RESOURCE_EXHAUSTED', async () => {
    // Two HTTP requests and one Flight call (GetFlightInfo takes a token, DoGet another) spend the burst of 4.
    for (let i = 0; i < 2; i++) assert.equal((await fetch(srv.sql, { method: 'POST', body: 'SELECT 1' })).status, 200);
    assert.deepEqual(rowsOf(await fetchTable(raw, 'SELECT 1 AS x')), [{ x: 1 }]);
    await assert.rejects(fetchTable(raw, 'SELECT 2 AS x'), (e: { code: number; details: string }) => {
      assert.equal(e.code, 8, e.details);
      assert.match(e.details, /^Too Many Requests \(retry after \d+ s\)$/);
      return true;
    });
    assert.equal((await fetch(srv.sql, { method: 'POST', body: 'SELECT 1' })).status, 429);
  });

  it("a peer's address drops the transport prefix and the port (one bucket per client host)", () => {
    assert.equal(peerAddress('ipv4:127.0.0.1:53122'), '127.0.0.1');
    assert.equal(peerAddress('ipv6:[::1]:53122'), '::1');
    assert.equal(peerAddress('127.0.0.1'), '127.0.0.1');
  });
});
