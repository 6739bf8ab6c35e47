// Malformed requests over raw sockets: each is answered or its connection closed within uWS's idle timeout,
// the process survives, and other clients are served meanwhile (no hang, no crash).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;
let port: number;

before(async () => {
  srv = await startTestServer([]);
  port = srv.server.port;
});
after(() => srv.close());

/** uWS (v20.30) closes a connection it cannot parse after its HTTP idle timeout of about 10 s. */
const CLOSED_WITHIN_MS = 15_000;

interface Outcome {
  readonly statusLine: string;
  readonly ms: number;
}

/** Sends `payload` and waits for the server to close the connection; fails after `CLOSED_WITHIN_MS`. */
function send(payload: string | Buffer): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(payload));
    let received = '';
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
    });
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${CLOSED_WITHIN_MS} ms; received ${JSON.stringify(received.slice(0, 80))}`));
    }, CLOSED_WITHIN_MS);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ statusLine: received.split('\r\n', 1)[0] ?? '', ms: Date.now() - start });
    });
  });
}

const HOST = 'Host: x\r\n';
const MALFORMED: [string, string | Buffer][] = [
  ['an asterisk target (GET *)', `GET * HTTP/1.1\r\n${HOST}\r\n`],
  ['OPTIONS *', `OPTIONS * HTTP/1.1\r\n${HOST}\r\n`],
  ['an absolute-form target', `GET http://x/health HTTP/1.1\r\n${HOST}\r\n`],
  ['a target without a slash', `GET health HTTP/1.1\r\n${HOST}\r\n`],
  ['an unknown method', `FOO /health HTTP/1.1\r\n${HOST}\r\n`],
  ['a method with a bad character', `G@T /health HTTP/1.1\r\n${HOST}\r\n`],
  ['no HTTP version', 'GET /health\r\n\r\n'],
  ['HTTP/9.9', `GET /health HTTP/9.9\r\n${HOST}\r\n`],
  ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
  ['a TLS ClientHello', Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a])],
  ['a header without a colon', `GET /health HTTP/1.1\r\n${HOST}NoColon\r\n\r\n`],
  ['300 headers', `GET /health HTTP/1.1\r\n${HOST}${'X-H: v\r\n'.repeat(300)}\r\n`],
  ['a non-numeric Content-Length', `POST /v1/sql HTTP/1.1\r\n${HOST}Content-Length: abc\r\n\r\nSELECT 1`],
  ['a 20-digit Content-Length', `POST /v1/sql HTTP/1.1\r\n${HOST}Content-Length: 99999999999999999999\r\n\r\nSELECT 1`],
  ['a bad chunk size', `POST /v1/sql HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked\r\n\r\nzz\r\nSELECT 1\r\n0\r\n\r\n`],
  [
    'Content-Length with chunked',
    `POST /v1/sql HTTP/1.1\r\n${HOST}Content-Length: 8\r\nTransfer-Encoding: chunked\r\n\r\n8\r\nSELECT 1\r\n0\r\n\r\n`,
  ],
];

describe('malformed requests', () => {
  it('are each answered or closed within the idle timeout while other clients are served', async () => {
    const pending = MALFORMED.map(([what, payload]) =>
      send(payload).then(
        (outcome) => ({ what, outcome }),
        (e: Error) => ({ what, error: e.message }),
      ),
    );
    // While all of them wait, the server still answers at once.
    const started = Date.now();
    const res = await fetch(srv.sql, { method: 'POST', body: 'SELECT 1 AS one' });
    assert.deepEqual([res.status, await res.text()], [200, '[{"one":1}]']);
    assert.ok(Date.now() - started < 5_000);
    for (const result of await Promise.all(pending)) {
      assert.ok(!('error' in result), `${result.what}: ${'error' in result ? result.error : ''}`);
      // Never a success for a request that is not one, and never a 5xx.
      assert.doesNotMatch(result.outcome.statusLine, /^HTTP\/1\.1 [25]/, result.what);
    }
    assert.equal((await fetch(`${srv.base}/health`)).status, 200);
  });

  it('long but valid request lines and headers are served', async () => {
    const long = await send(
      `GET /health?${'a'.repeat(10_000)} HTTP/1.1\r\n${HOST}X-Long: ${'b'.repeat(50_000)}\r\nConnection: close\r\n\r\n`,
    );
    assert.equal(long.statusLine, 'HTTP/1.1 200 OK');
  });
});
