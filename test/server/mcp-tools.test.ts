// floe's MCP Server driven by the SDK's own Client over an in-memory linked pair, against a real server's query service.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../server/auth/principal.js';
import { createMcpServer } from '../../server/mcp/mcp-server.js';
import { waitFor } from '../helpers/dataset-files.js';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let srv: TestServer;
const clients: Client[] = [];

before(async () => {
  const dir = await makeTempDir();
  const people = await writePeople(join(dir, 'people.parquet'));
  const big = await writeBig(join(dir, 'big.parquet'), 1000);
  srv = await startTestServer([
    { name: 'people', from: `file:${people}` },
    { name: 'big', from: `file:${big}` },
  ]);
});
after(async () => {
  for (const c of clients) await c.close();
  await srv.close();
});

/** A Client connected to a fresh session's Server running as `principal`. */
async function connect(
  principal: Principal = { id: 'test', canWrite: false },
  maxResultBytes?: number,
): Promise<Client> {
  const server = createMcpServer({
    service: srv.server.service,
    datasets: () => srv.server.datasets.list(),
    principal,
    maxResultBytes,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

type Result = { content: { type: string; text: string }[]; isError?: boolean };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

/** The JSON inside a successful result's one text item. */
function json(result: Result): unknown {
  assert.equal(result.isError, undefined, result.content[0]?.text);
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0]?.type, 'text');
  return JSON.parse(result.content[0]?.text ?? '');
}

async function rejectsWith(promise: Promise<unknown>, code: number, message: RegExp) {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, message);
    return true;
  });
}

describe('initialize and tools/list', () => {
  it('names floe, offers tools, and lists the five built-ins with object schemas', async () => {
    const client = await connect();
    assert.equal(client.getServerVersion()?.name, 'floe');
    assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: false });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['sql', 'list_datasets', 'table_schema', 'sample', 'search'],
    );
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok((t.description ?? '').length > 20, t.name);
    }
    assert.deepEqual(tools[0]?.inputSchema.required, ['query']);
    const method = tools[3]?.inputSchema.properties?.method as { enum: string[] } | undefined;
    assert.deepEqual(method?.enum, ['distinct', 'random', 'top_n']);
  });
});

describe('sql', () => {
  it('returns the rows as a JSON array in one text item', async () => {
    const client = await connect();
    const rows = json(await call(client, 'sql', { query: 'SELECT id, name FROM people WHERE id <= 2 ORDER BY id' }));
    assert.deepEqual(rows, [
      { id: 1, name: 'Alice' },
      { id: 2, name: 'Bob' },
    ]);
    assert.deepEqual(json(await call(client, 'sql', { query: 'SELECT count(*) AS n FROM big' })), [{ n: 1000 }]);
  });

  it('a result over max_result_size is cancelled and answered isError asking for a LIMIT', async () => {
    const client = await connect(undefined, 4096);
    const big = await call(client, 'sql', { query: 'SELECT * FROM big' });
    assert.equal(big.isError, true);
    assert.equal(
      big.content[0]?.text,
      'query failed (memory): the result is over 4096 bytes: add a LIMIT, select fewer columns or aggregate',
    );
    const small = json(await call(client, 'sql', { query: 'SELECT count(*) AS n FROM big' }));
    assert.deepEqual(small, [{ n: 1000 }]);
    await waitFor(() => srv.server.service.admitted === 0, 'the cancelled query to leave');
  });

  it('a failed query is an isError result with the error text, not a JSON-RPC error', async () => {
    const client = await connect();
    const bad = await call(client, 'sql', { query: 'SELECT nope FROM people' });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]?.text ?? '', /^query failed \(\w+\): .*nope/);
    const missing = await call(client, 'sql', { query: 'SELECT * FROM no_such_table' });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0]?.text ?? '', /no_such_table/);
  });

  it("is read-only for a read-only principal; a writer's write reaches the engine", async () => {
    const ro = await call(await connect(), 'sql', { query: 'INSERT INTO people VALUES (9)' });
    assert.equal(ro.isError, true);
    assert.match(ro.content[0]?.text ?? '', /^query failed \(forbidden\): INSERT is not allowed in a read-only/);
    const rw = await call(await connect({ id: 'w', canWrite: true }), 'sql', {
      query: 'INSERT INTO people VALUES (9)',
    });
    assert.equal(rw.isError, true);
    assert.match(rw.content[0]?.text ?? '', /not supported/);
  });

  it('a missing or non-string query is -32602', async () => {
    const client = await connect();
    await rejectsWith(call(client, 'sql', {}), ErrorCode.InvalidParams, /'query' must be a non-empty string/);
    await rejectsWith(call(client, 'sql', { query: 42 }), ErrorCode.InvalidParams, /'query'/);
  });
});

describe('list_datasets and table_schema', () => {
  it('lists the datasets with source and status', async () => {
    const listed = json(await call(await connect(), 'list_datasets', {})) as { name: string; status: string }[];
    assert.deepEqual(
      listed.map((d) => [d.name, d.status]),
      [
        ['people', 'Ready'],
        ['big', 'Ready'],
      ],
    );
  });

  it("gives a dataset's columns with PostgreSQL types", async () => {
    const schema = json(await call(await connect(), 'table_schema', { dataset: 'big' }));
    assert.deepEqual(schema, {
      dataset: 'big',
      columns: [
        { name: 'id', type: 'integer', nullable: true },
        { name: 'label', type: 'text', nullable: true },
        { name: 'grp', type: 'integer', nullable: true },
      ],
    });
  });

  it('an unknown dataset is an isError result naming the datasets; no dataset is -32602', async () => {
    const client = await connect();
    const unknown = await call(client, 'table_schema', { dataset: 'nope' });
    assert.equal(unknown.isError, true);
    assert.equal(unknown.content[0]?.text, "unknown dataset 'nope'; the datasets are: people, big");
    await rejectsWith(call(client, 'table_schema', {}), ErrorCode.InvalidParams, /'dataset'/);
  });
});

describe('sample', () => {
  it('distinct: up to limit distinct values per column (default all columns)', async () => {
    const client = await connect();
    const all = json(await call(client, 'sample', { dataset: 'big', limit: 3 })) as Record<string, string[]>;
    assert.deepEqual(Object.keys(all), ['id', 'label', 'grp']);
    for (const values of Object.values(all)) assert.equal(new Set(values).size, 3);
    const some = json(await call(client, 'sample', { dataset: 'people', method: 'distinct', columns: ['active'] }));
    assert.deepEqual(Object.keys(some as object), ['active']);
    assert.deepEqual([...(some as { active: string[] }).active].sort(), ['false', 'true']);
  });

  it('random: limit distinct rows of the dataset; all rows when it has fewer', async () => {
    const client = await connect();
    const rows = json(await call(client, 'sample', { dataset: 'big', method: 'random', limit: 7 })) as {
      id: number;
      label: string;
    }[];
    assert.equal(rows.length, 7);
    assert.equal(new Set(rows.map((r) => r.id)).size, 7);
    for (const r of rows) assert.equal(r.label, `label-${r.id}`);
    const few = json(await call(client, 'sample', { dataset: 'people', method: 'random', limit: 100 }));
    assert.equal((few as unknown[]).length, 5);
  });

  it('top_n: the first rows by order_by, descending unless ascending', async () => {
    const client = await connect();
    const top = json(await call(client, 'sample', { dataset: 'big', method: 'top_n', order_by: 'id', limit: 2 }));
    assert.deepEqual(
      (top as { id: number }[]).map((r) => r.id),
      [999, 998],
    );
    const low = await call(client, 'sample', {
      dataset: 'people',
      method: 'top_n',
      order_by: 'amount',
      ascending: true,
      limit: 2,
    });
    assert.deepEqual(
      (json(low) as { id: number }[]).map((r) => r.id),
      [2, 4],
    );
  });

  it('bad arguments: -32602 for limit, method; isError for an unknown column or a top_n without order_by', async () => {
    const client = await connect();
    await rejectsWith(call(client, 'sample', { dataset: 'big', limit: 101 }), ErrorCode.InvalidParams, /1 to 100/);
    await rejectsWith(call(client, 'sample', { dataset: 'big', limit: 0 }), ErrorCode.InvalidParams, /'limit'/);
    await rejectsWith(
      call(client, 'sample', { dataset: 'big', method: 'first' }),
      ErrorCode.InvalidParams,
      /'method' must be one of distinct, random, top_n/,
    );
    const col = await call(client, 'sample', { dataset: 'big', columns: ['nope'] });
    assert.equal(col.isError, true);
    assert.equal(col.content[0]?.text, "dataset 'big' has no column nope; its columns: id, label, grp");
    const topN = await call(client, 'sample', { dataset: 'big', method: 'top_n' });
    assert.equal(topN.isError, true);
    assert.match(topN.content[0]?.text ?? '', /needs 'order_by'/);
  });
});

describe('tool names (contract §8)', () => {
  it('an unknown tool is -32601; a name over 256 characters or with other characters is -32602', async () => {
    const client = await connect();
    await rejectsWith(call(client, 'nope', {}), ErrorCode.MethodNotFound, /unknown tool 'nope'/);
    await rejectsWith(call(client, 'entry/tool.x-1', {}), ErrorCode.MethodNotFound, /unknown tool/);
    await rejectsWith(call(client, 'a'.repeat(257), {}), ErrorCode.InvalidParams, /1 to 256 characters/);
    await rejectsWith(call(client, `s${'q'.repeat(255)}`, {}), ErrorCode.MethodNotFound, /unknown tool/);
    await rejectsWith(call(client, 'sql;drop', {}), ErrorCode.InvalidParams, /letters, digits/);
    await rejectsWith(call(client, 'sql tool', {}), ErrorCode.InvalidParams, /letters, digits/);
  });
});
