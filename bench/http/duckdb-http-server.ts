// Reference server, what a user would otherwise build: node:http answering POST /v1/sql through DuckDB, with the
// TPC-H tables loaded in memory and JSON rows like floe's. Usage: node duckdb-http-server.js <data dir> [port]
// Prints `listening <port>` on stdout; stops on SIGTERM.
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { TPCH_TABLES } from '../data/tpch-gen.js';

const [dir, port = '0'] = process.argv.slice(2);
const cores = availableParallelism();
const instance = await DuckDBInstance.create(':memory:', { threads: String(cores) });
const setup = await instance.connect();
for (const name of TPCH_TABLES) {
  await setup.run(`CREATE TABLE ${name} AS SELECT * FROM read_parquet('${join(dir!, name)}/*.parquet')`);
}
// One connection per core: a DuckDB connection runs one query at a time.
const connections: DuckDBConnection[] = await Promise.all(Array.from({ length: cores }, () => instance.connect()));
let next = 0;

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/sql') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const conn = connections[next++ % connections.length]!;
    try {
      const reader = await conn.runAndReadAll(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reader.getRowObjectsJson()));
    } catch (e) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(e));
    }
  });
});
server.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
