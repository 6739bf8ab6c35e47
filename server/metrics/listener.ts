// `listenMetrics`: the Prometheus listener: GET /metrics on its own node:http server, 404 for any other path.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A bound metrics listener. */
export interface MetricsListener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` (and HEAD) with `scrape()`'s text; 405 with `Allow` for other methods on /metrics; 404 on
 * every other path. Rejects when host:port cannot be bound. node:http rather than a second uWS app: a scrape
 * every few seconds needs no speed, and this keeps the listener apart from the query listener's lifecycle (it
 * stays up while the HTTP API drains at shutdown, and uWebSockets.js keeps its single home in server/http/).
 */
export function listenMetrics(
  host: string,
  port: number,
  scrape: () => Promise<{ contentType: string; text: string }>,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return void res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET' }).end('Method Not Allowed');
    }
    scrape().then(
      ({ contentType, text }) => res.writeHead(200, { 'content-type': contentType }).end(text),
      (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(e)}`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen for metrics on ${host}:${port} (${e.code ?? e.message})`)),
    );
    server.listen(port, host, () => {
      resolve({ port: (server.address() as AddressInfo).port, close: () => closeServer(server) });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
