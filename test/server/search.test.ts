// Full-text search: BM25 ranks on a fixed corpus, the index after a reload, the MCP `search` tool, /v1/datasets.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { writeParquetFile } from '../../engine/index.js';
import { createMcpServer } from '../../server/mcp/mcp-server.js';
import { INT32, UTF8 } from '../helpers/batches.js';
import { makeTempDir, writeBig } from '../helpers/fixtures.js';
import { get } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Eight bodies whose BM25 order is clear: term frequency, body length, rare against common terms. */
const BODIES = [
  'the quick brown fox',
  'fox fox fox jumps',
  'a lazy dog sleeps all day long in the warm sun by the river',
  'dog',
  'zebra crossing near the fox den',
  'the the the the',
  'brown dog and brown cat',
  'nothing relevant here',
];
const TITLES = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'fox report'];

async function writeDocs(path: string, extra: readonly [string, string][] = []): Promise<string> {
  const n = BODIES.length + extra.length;
  await writeParquetFile(path, [
    { name: 'id', type: INT32, nullable: false, values: Int32Array.from({ length: n }, (_, i) => i + 1) },
    { name: 'title', type: UTF8, values: [...TITLES, ...extra.map((e) => e[0])] },
    { name: 'body', type: UTF8, values: [...BODIES, ...extra.map((e) => e[1])] },
  ]);
  return path;
}

const searchable = (row_id?: string[]) => [
  { name: 'title', full_text_search: { enabled: true } },
  { name: 'body', full_text_search: row_id === undefined ? { enabled: true } : { enabled: true, row_id } },
];

let srv: TestServer;
let docsPath: string;

before(async () => {
  const dir = await makeTempDir();
  docsPath = await writeDocs(join(dir, 'docs.parquet'));
  const big = await writeBig(join(dir, 'big.parquet'), 100);
  srv = await startTestServer([
    { name: 'docs', from: `file:${docsPath}`, columns: searchable(['id']) },
    { name: 'plain', from: `file:${big}` },
    { name: 'missing_col', from: `file:${big}`, columns: [{ name: 'nope', full_text_search: { row_id: ['id'] } }] },
    { name: 'not_text', from: `file:${big}`, columns: [{ name: 'grp', full_text_search: { row_id: ['id'] } }] },
  ]);
  await srv.server.search.idle();
});
after(() => srv.close());

interface Hit {
  dataset: string;
  score: number;
  primary_key: { id: number };
  matches: Record<string, string>;
}

async function search(body: unknown): Promise<{ status: number; json: { results: Hit[]; message?: string } }> {
  const res = await fetch(`${srv.base}/v1/search`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { results: Hit[]; message?: string } };
}

async function ids(text: string, datasets = ['docs']): Promise<number[]> {
  const { status, json } = await search({ text, datasets });
  assert.equal(status, 200, JSON.stringify(json));
  return json.results.map((r) => r.primary_key.id);
}

describe('BM25 ranking', () => {
  it('ranks by term frequency, then by shorter text', async () => {
    // fox: 3 times in a 4-word body > once in 4 words > once in 6 words; the title match of doc 8 is elsewhere.
    const order = (await ids('fox')).filter((id) => id !== 8);
    assert.deepEqual(order, [2, 1, 5]);
    // dog once: in 1 word > in 5 words > in 13 words.
    assert.deepEqual(await ids('dog'), [4, 7, 3]);
  });

  it('a rare term outweighs a common one, and rows matching more terms come first', async () => {
    assert.equal((await ids('zebra fox'))[0], 5);
    assert.equal((await ids('brown dog'))[0], 7);
    // the: 4 times > once in 4 words > once in 6 words > twice in 14 words (b = 0.75 weighs length heavily).
    assert.deepEqual(await ids('the'), [6, 1, 5, 3]);
  });

  it('scores are BM25 with k1 = 1.2, b = 0.75 (one term, one column)', async () => {
    const { json } = await search({ text: 'dog', datasets: ['docs'], limit: 1 });
    const lengths = BODIES.map((b) => b.split(' ').length);
    const avg = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const idf = Math.log(1 + (8 - 3 + 0.5) / (3 + 0.5));
    const expected = (idf * (1 * 2.2)) / (1 + 1.2 * (1 - 0.75 + (0.75 * 1) / avg));
    assert.equal(json.results.length, 1);
    assert.ok(Math.abs((json.results[0]?.score ?? 0) - expected) < 1e-9, `${json.results[0]?.score} vs ${expected}`);
  });

  it('matches name the columns a term occurs in, with their text; case does not matter', async () => {
    const { json } = await search({ text: 'FOX', datasets: ['docs'] });
    const byId = new Map(json.results.map((r) => [r.primary_key.id, r]));
    assert.deepEqual(byId.get(8)?.matches, { title: 'fox report' });
    assert.deepEqual(byId.get(2)?.matches, { body: 'fox fox fox jumps' });
    assert.deepEqual(byId.get(2)?.primary_key, { id: 2 });
    assert.equal(byId.get(2)?.dataset, 'docs');
  });

  it('limit keeps the best; words found nowhere give no results', async () => {
    assert.deepEqual(await ids('dog', ['docs']).then((r) => r.slice(0, 2)), [4, 7]);
    const { json } = await search({ text: 'dog', datasets: ['docs'], limit: 2 });
    assert.deepEqual(
      json.results.map((r) => r.primary_key.id),
      [4, 7],
    );
    assert.deepEqual(await ids('unicornxyz'), []);
  });
});

describe('POST /v1/search', () => {
  it("answers Spice's shape: results with matches, data, primary_key, score, dataset, and duration_ms", async () => {
    const res = await fetch(`${srv.base}/v1/search`, { method: 'POST', body: '{"text":"zebra"}' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const body = (await res.json()) as { results: Record<string, unknown>[]; duration_ms: number };
    assert.equal(typeof body.duration_ms, 'number');
    assert.equal(body.results.length, 1);
    const [hit] = body.results;
    assert.deepEqual(Object.keys(hit ?? {}), ['matches', 'data', 'primary_key', 'score', 'dataset']);
    assert.deepEqual(hit?.data, { id: 5 });
    assert.deepEqual(hit?.matches, { body: 'zebra crossing near the fox den' });
  });

  const bad: [string, string, RegExp][] = [
    ['not JSON', '{"text":', /^Invalid JSON body/],
    ['not an object', '["dog"]', /expected an object/],
    ['no text', '{}', /'text' is required/],
    ['empty text', '{"text":"  "}', /'text' is required/],
    ['limit 0', '{"text":"dog","limit":0}', /'limit' must be an integer from 1 to 100/],
    ['limit 101', '{"text":"dog","limit":101}', /'limit'/],
    ['datasets not a list', '{"text":"dog","datasets":"docs"}', /'datasets' must be/],
    ['an unknown key', '{"text":"dog","colour":1}', /Unknown field 'colour'/],
    ['where', '{"text":"dog","where":"id > 1"}', /'where' is not supported yet/],
    [
      'additional_columns',
      '{"text":"dog","additional_columns":["title"]}',
      /'additional_columns' is not supported yet/,
    ],
    [
      'an unknown dataset',
      '{"text":"dog","datasets":["nope"]}',
      /dataset 'nope' has no full-text search.*: docs, missing_col, not_text/,
    ],
    ['a dataset without search', '{"text":"dog","datasets":["plain"]}', /dataset 'plain' has no full-text search/],
  ];
  for (const [what, body, message] of bad) {
    it(`400 for ${what}`, async () => {
      const res = await fetch(`${srv.base}/v1/search`, { method: 'POST', body });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as { message: string }).message, message);
    });
  }

  it('a column that does not exist or is not text: 503 naming it; searching all skips those datasets', async () => {
    const missing = await search({ text: 'x', datasets: ['missing_col'] });
    assert.equal(missing.status, 503);
    assert.match(missing.json.message ?? '', /column 'nope' does not exist; the columns are: id, label, grp/);
    const notText = await search({ text: 'x', datasets: ['not_text'] });
    assert.equal(notText.status, 503);
    assert.match(notText.json.message ?? '', /column 'grp' is integer: full-text search indexes text columns only/);
    assert.deepEqual(await ids('zebra', undefined as unknown as string[]), [5]);
  });

  it('GET is 405 with Allow: POST', async () => {
    const res = await get(`${srv.base}/v1/search`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
  });
});

describe('/v1/datasets', () => {
  it('properties.search is supported for the datasets with a full_text_search column', async () => {
    const res = await get(`${srv.base}/v1/datasets`);
    const items = JSON.parse(res.text) as { name: string; properties: Record<string, string> }[];
    const search = Object.fromEntries(items.map((d) => [d.name, d.properties.search]));
    assert.deepEqual(search, {
      docs: 'supported',
      plain: 'unsupported',
      missing_col: 'supported',
      not_text: 'supported',
    });
    assert.equal(items[0]?.properties.vector_search, 'unsupported');
  });
});

describe('the MCP search tool', () => {
  async function connect(): Promise<Client> {
    const server = createMcpServer({
      service: srv.server.service,
      datasets: () => srv.server.datasets.list(),
      principal: { id: 'test', canWrite: false },
      search: srv.server.search,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    return client;
  }
  type Result = { content: { text: string }[]; isError?: boolean };

  it('list_datasets says which datasets can be searched', async () => {
    const client = await connect();
    const result = (await client.callTool({ name: 'list_datasets', arguments: {} })) as Result;
    const listed = JSON.parse(result.content[0]?.text ?? '') as { name: string; can_search_documents: boolean }[];
    assert.deepEqual(
      listed.map((d) => [d.name, d.can_search_documents]),
      [
        ['docs', true],
        ['plain', false],
        ['missing_col', true],
        ['not_text', true],
      ],
    );
    await client.close();
  });

  it('is listed with query required, limit 1..100 and dataset', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'search');
    assert.deepEqual(tool?.inputSchema.required, ['query']);
    assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}), ['query', 'limit', 'dataset']);
    await client.close();
  });

  it('returns [{dataset, score, <row id>, matches}] best first', async () => {
    const client = await connect();
    const result = (await client.callTool({ name: 'search', arguments: { query: 'dog', limit: 2 } })) as Result;
    assert.equal(result.isError, undefined);
    const hits = JSON.parse(result.content[0]?.text ?? '') as Record<string, unknown>[];
    assert.deepEqual(
      hits.map((h) => [h.dataset, h.id, h.matches]),
      [
        ['docs', 4, { body: 'dog' }],
        ['docs', 7, { body: 'brown dog and brown cat' }],
      ],
    );
    assert.ok((hits[0]?.score as number) > (hits[1]?.score as number));
    await client.close();
  });

  it('a dataset without search is an isError result naming the searchable ones; bad arguments are -32602', async () => {
    const client = await connect();
    const result = (await client.callTool({ name: 'search', arguments: { query: 'dog', dataset: 'plain' } })) as Result;
    assert.equal(result.isError, true);
    assert.match(result.content[0]?.text ?? '', /the searchable datasets are: docs, missing_col, not_text/);
    for (const args of [
      {},
      { query: '' },
      { query: 'dog', limit: 0 },
      { query: 'dog', limit: 101 },
      { query: 'dog', dataset: 3 },
    ]) {
      await assert.rejects(client.callTool({ name: 'search', arguments: args }), (e: unknown) => {
        assert.ok(e instanceof McpError);
        assert.equal(e.code, ErrorCode.InvalidParams);
        return true;
      });
    }
    await client.close();
  });
});

describe('after a reload', () => {
  it('the new index serves the new rows; the old one served until it was built', async () => {
    assert.deepEqual(await ids('unicorn'), []);
    await writeDocs(docsPath, [['new', 'a unicorn appears']]);
    await srv.server.reloadDataset('docs');
    await srv.server.search.idle();
    assert.deepEqual(await ids('unicorn'), [9]);
    assert.deepEqual(await ids('dog'), [4, 7, 3]);
  });
});

describe('with API keys', () => {
  const KEY = 'search-k3y-0001';
  let authed: TestServer;
  before(async () => {
    const dir = await makeTempDir();
    const path = await writeDocs(join(dir, 'docs.parquet'));
    authed = await startTestServer([{ name: 'docs', from: `file:${path}`, columns: searchable(['id']) }], {
      runtime: { auth: { 'api-key': { enabled: true, keys: [`${KEY}:ro`] } } },
    });
    await authed.server.search.idle();
  });
  after(() => authed.close());

  it("the index's whole-table read stays out of the results cache (only the LIMIT 0 column check is there)", () => {
    assert.equal(authed.server.resultsCache?.size, 1);
  });

  it('POST /v1/search is 401 without a key and answers with one', async () => {
    const url = `${authed.base}/v1/search`;
    const none = await fetch(url, { method: 'POST', body: '{"text":"dog"}' });
    assert.equal(none.status, 401);
    const wrong = await fetch(url, { method: 'POST', body: '{"text":"dog"}', headers: { 'X-API-Key': 'nope' } });
    assert.equal(wrong.status, 401);
    const ok = await fetch(url, { method: 'POST', body: '{"text":"dog"}', headers: { 'X-API-Key': KEY } });
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { results: Hit[] };
    assert.deepEqual(
      body.results.map((r) => r.primary_key.id),
      [4, 7, 3],
    );
  });

  it('the search tool over Streamable HTTP /v1/mcp', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${authed.base}/v1/mcp`), {
      requestInit: { headers: { 'X-API-Key': KEY } },
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    const result = (await client.callTool({ name: 'search', arguments: { query: 'zebra', dataset: 'docs' } })) as {
      content: { text: string }[];
    };
    const hits = JSON.parse(result.content[0]?.text ?? '') as { id: number; matches: object }[];
    assert.deepEqual(
      hits.map((h) => [h.id, h.matches]),
      [[5, { body: 'zebra crossing near the fox den' }]],
    );
    await client.close();
  });
});
