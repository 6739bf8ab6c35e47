// POST /v1/nsql over real HTTP against the scripted model: formats, retries, validation, scope and every §7.1 error.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import * as arrow from 'apache-arrow';
import type { QueryService, ServiceRequest } from '../../server/runtime/query-service.js';
import { type FakeLlm, startFakeLlm } from '../helpers/fake-llm.js';
import { makeTempDir, writeBig, writePeople } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let llm: FakeLlm;
let t: TestServer;
/** Every SQL text that reached the query service, in order (wrapped around the server's one service). */
let ran: string[] = [];

before(async () => {
  const dir = await makeTempDir();
  const people = await writePeople(join(dir, 'people.parquet'));
  const big = await writeBig(join(dir, 'big.parquet'), 1000);
  llm = await startFakeLlm();
  const endpoint = llm.endpoint;
  t = await startTestServer(
    [
      { name: 'people', from: `file:${people}` },
      { name: 'big', from: `file:${big}` },
    ],
    {
      models: [
        { name: 'nql', from: 'openai:fake-sql', params: { endpoint } },
        { name: 'people_only', from: 'openai:fake-sql', params: { endpoint }, datasets: ['people'] },
        { name: 'slow', from: 'openai:fake-sql', params: { endpoint, timeout: '300ms' } },
        { name: 'custom', from: 'openai:fake-sql', params: { endpoint, system_prompt: 'Answer in SQL, briefly.' } },
        // Nothing listens on port 1: its start-up probe fails, so it is in `error`.
        { name: 'down', from: 'openai:fake-sql', params: { endpoint: 'http://127.0.0.1:1/v1' } },
      ],
    },
  );
  const service = t.server.service as { run: QueryService['run'] };
  const run = service.run.bind(service);
  service.run = (request: ServiceRequest, sink) => {
    ran.push(request.sql);
    return run(request, sink);
  };
});
after(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => {
  llm.chats.length = 0;
  ran = [];
});

const nsql = (body: unknown, accept = 'application/json') =>
  post(`${t.base}/v1/nsql`, JSON.stringify(body), { 'content-type': 'application/json', accept });
/** The model answers these in turn, repeating the last. */
const script = (...answers: string[]) => {
  llm.script = (_chat, i) => answers[Math.min(i, answers.length - 1)] ?? '';
};
/** The SQL run for answers: not validation (EXPLAIN), schemas (LIMIT 0) or samples (quoted table names). */
const executed = () => ran.filter((sql) => !sql.startsWith('EXPLAIN ') && !/ FROM "/.test(sql));

describe('POST /v1/nsql: answers', () => {
  it('runs the right SQL and answers JSON rows, with the attempt count', async () => {
    script('SELECT name FROM people WHERE id <= 2 ORDER BY id');
    const a = await nsql({ query: 'the first two names' });
    assert.equal(a.status, 200);
    assert.equal(a.contentType, 'application/json');
    assert.deepEqual(JSON.parse(a.text), [{ name: 'Alice' }, { name: 'Bob' }]);
    assert.equal(a.headers.get('nsql-attempts'), '1');
    assert.equal(llm.chats.length, 1);
    assert.equal(llm.chats[0]?.messages[1]?.content, 'the first two names');
    assert.equal(llm.chats[0]?.model, 'fake-sql');
  });

  it('takes SQL out of a code fence behind prose', async () => {
    script('Here is the query:\n```sql\nSELECT count(*) AS n FROM people;\n```\nIt counts the people.');
    const a = await nsql({ query: 'how many people?' });
    assert.equal(a.status, 200);
    assert.deepEqual(JSON.parse(a.text), [{ n: 5 }]);
  });

  it('every Accept of §4.1: vnd JSON with sql, CSV, text table, application/sql', async () => {
    const sql = 'SELECT id, name FROM people WHERE id = 1';
    script(sql);
    const vnd = await nsql({ query: 'q' }, 'application/vnd.service.nsql.v1+json');
    assert.equal(vnd.contentType, 'application/vnd.service.nsql.v1+json');
    const body = JSON.parse(vnd.text);
    assert.deepEqual(body.data, [{ id: 1, name: 'Alice' }]);
    assert.equal(body.row_count, 1);
    assert.equal(body.sql, sql);
    assert.deepEqual(
      body.schema.fields.map((f: { name: string; data_type: string }) => [f.name, f.data_type]),
      [
        ['id', 'Int32'],
        ['name', 'Utf8'],
      ],
    );
    const spice = await nsql({ query: 'q' }, 'application/vnd.spiceai.nsql.v1+json');
    assert.equal(spice.contentType, 'application/vnd.spiceai.nsql.v1+json');
    assert.equal(JSON.parse(spice.text).sql, sql);
    const csv = await nsql({ query: 'q' }, 'text/csv');
    assert.equal(csv.contentType, 'text/csv; charset=utf-8');
    assert.equal(csv.text, '"id","name"\n1,Alice\n');
    const text = await nsql({ query: 'q' }, 'text/plain');
    assert.equal(text.contentType, 'text/plain; charset=utf-8');
    assert.match(text.text, /\| id \| name {2}\|\n\+-+\+-+\+\n\| 1 {2}\| Alice \|/);
    const dry = await nsql({ query: 'q' }, 'application/sql');
    assert.equal(dry.status, 200);
    assert.equal(dry.contentType, 'application/sql');
    assert.equal(dry.text, sql);
  });

  it('answers as an Arrow IPC stream or NDJSON, as /v1/sql does', async () => {
    script('SELECT id, name FROM people WHERE id <= 2 ORDER BY id');
    const res = await fetch(`${t.base}/v1/nsql`, {
      method: 'POST',
      body: JSON.stringify({ query: 'q' }),
      headers: { 'content-type': 'application/json', accept: 'application/vnd.apache.arrow.stream' },
    });
    assert.equal(res.headers.get('content-type'), 'application/vnd.apache.arrow.stream');
    const table = arrow.tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    assert.deepEqual(
      table.toArray().map((r) => ({ ...r.toJSON() })),
      [
        { id: 1, name: 'Alice' },
        { id: 2, name: 'Bob' },
      ],
    );
    const nd = await nsql({ query: 'q' }, 'application/x-ndjson');
    assert.equal(nd.contentType, 'application/x-ndjson');
    assert.equal(nd.text, '{"id":1,"name":"Alice"}\n{"id":2,"name":"Bob"}\n');
  });

  it('application/sql runs nothing: the SQL is only EXPLAINed (an execution-time error never shows)', async () => {
    // Plans fine, fails when run ('Alice' is no integer).
    const sql = 'SELECT CAST(name AS INTEGER) AS n FROM people';
    script(sql);
    const dry = await nsql({ query: 'q', sample_data_enabled: false }, 'application/sql');
    assert.equal(dry.status, 200);
    assert.equal(dry.text, sql);
    assert.deepEqual(ran, ['SELECT * FROM "people" LIMIT 0', 'SELECT * FROM "big" LIMIT 0', `EXPLAIN ${sql}`]);
    ran = [];
    llm.chats.length = 0;
    const run = await nsql({ query: 'q', sample_data_enabled: false });
    assert.equal(run.status, 400);
    assert.ok(executed().includes(sql));
  });
});

describe('POST /v1/nsql: retries', () => {
  it('asks again with the failed SQL and its error, then answers', async () => {
    script('SELECT nme FROM people', 'SELECT name FROM people WHERE id = 2');
    const a = await nsql({ query: 'the second name' });
    assert.equal(a.status, 200);
    assert.deepEqual(JSON.parse(a.text), [{ name: 'Bob' }]);
    assert.equal(a.headers.get('nsql-attempts'), '2');
    assert.equal(llm.chats.length, 2);
    const retry = llm.chats[1]?.messages[0]?.content ?? '';
    assert.match(retry, /## Failed attempts/);
    assert.match(retry, /sql: SELECT nme FROM people\nerror: column "nme" does not exist/);
    assert.doesNotMatch(llm.chats[0]?.messages[0]?.content ?? '', /Failed attempts/);
  });

  it('10 wrong answers: 400 Error executing query: <last error>, exactly 10 model calls', async () => {
    llm.script = (_chat, i) => `SELECT no_such_${i} FROM people`;
    const a = await nsql({ query: 'q', sample_data_enabled: false });
    assert.equal(a.status, 400);
    assert.equal(a.contentType, 'text/plain; charset=utf-8');
    assert.match(a.text, /^Error executing query: column "no_such_9" does not exist/);
    assert.equal(a.headers.get('nsql-attempts'), '10');
    assert.equal(llm.chats.length, 10);
    // The last prompt carries the nine failures before it.
    assert.equal((llm.chats[9]?.messages[0]?.content.match(/\nsql: /g) ?? []).length, 9);
  });

  it('an empty answer every time: 500 No query produced from NSQL model', async () => {
    script('');
    const a = await nsql({ query: 'q', sample_data_enabled: false });
    assert.equal(a.status, 500);
    assert.equal(a.text, 'No query produced from NSQL model');
    assert.equal(llm.chats.length, 10);
  });

  it('a write from the model is refused in validation and never executed', async () => {
    script('SELECT * INTO stolen FROM people', 'DROP TABLE people', 'SELECT count(*) AS n FROM people');
    const a = await nsql({ query: 'q', sample_data_enabled: false });
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('nsql-attempts'), '3');
    const second = llm.chats[1]?.messages[0]?.content ?? '';
    assert.match(second, /error: only a read-only SELECT is allowed: the query contains INTO/);
    const third = llm.chats[2]?.messages[0]?.content ?? '';
    assert.match(third, /sql: \(no SQL in the answer\)\nerror: the answer held no SQL query/);
    assert.deepEqual(executed(), ['SELECT count(*) AS n FROM people']);
    assert.ok(!ran.some((sql) => /^(SELECT \* INTO|DROP)/.test(sql)));
  });
});

describe('POST /v1/nsql: model failures', () => {
  it('a slow model: 504 naming the time-out, no retry', async () => {
    llm.script = () => ({ content: 'SELECT 1', delayMs: 2000 });
    const a = await nsql({ query: 'q', model: 'slow', sample_data_enabled: false });
    assert.equal(a.status, 504);
    assert.match(a.text, /^NSQL model call failed \(timeout\): Model slow did not answer within 300ms/);
    assert.equal(llm.chats.length, 1);
  });

  it("the provider's 429: 429 saying so, with its Retry-After", async () => {
    llm.script = () => ({ status: 429, retryAfterS: 7, body: 'Rate limit reached for requests' });
    const a = await nsql({ query: 'q', sample_data_enabled: false });
    assert.equal(a.status, 429);
    assert.match(a.text, /^NSQL model call failed \(rate_limited\): .*Rate limit reached/);
    assert.ok(!/\n\s+at /.test(a.text), 'no stack');
  });

  it('a provider error: 502', async () => {
    llm.script = () => ({ status: 500, body: 'upstream exploded' });
    const a = await nsql({ query: 'q', sample_data_enabled: false });
    assert.equal(a.status, 502);
    assert.match(a.text, /^NSQL model call failed/);
  });
});

describe('POST /v1/nsql: scope and requests', () => {
  it('400 Model <m> not found', async () => {
    const a = await nsql({ query: 'q', model: 'gpt-9' });
    assert.equal(a.status, 400);
    assert.equal(a.text, 'Model gpt-9 not found');
    assert.equal(llm.chats.length, 0);
  });

  it('a model in error: 503 with its error, no call', async () => {
    const a = await nsql({ query: 'q', model: 'down' });
    assert.equal(a.status, 503);
    assert.match(
      a.text,
      /^Model down is not available: Model down \(openai:fake-sql\) at http:\/\/127\.0\.0\.1:1\/v1: /,
    );
    assert.equal(llm.chats.length, 0);
  });

  it("400 Dataset '<x>' not found: unknown, or outside the model's allowlist", async () => {
    const unknown = await nsql({ query: 'q', datasets: ['nope'] });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.text, "Dataset 'nope' not found");
    const outside = await nsql({ query: 'q', model: 'people_only', datasets: ['big'] });
    assert.equal(outside.text, "Dataset 'big' not found");
    assert.equal(llm.chats.length, 0);
  });

  it("the model's datasets restrict the schemas, and a query of another table fails validation", async () => {
    script('SELECT count(*) AS n FROM big', 'SELECT count(*) AS n FROM people');
    const a = await nsql({ query: 'q', model: 'people_only' });
    assert.equal(a.status, 200);
    assert.deepEqual(JSON.parse(a.text), [{ n: 5 }]);
    const first = llm.chats[0]?.messages[0]?.content ?? '';
    assert.match(first, /Table people \(7 columns\)/);
    assert.doesNotMatch(first, /Table big/);
    assert.match(
      llm.chats[1]?.messages[0]?.content ?? '',
      /error: table "big" is not available to this model; use only: people/,
    );
    assert.ok(!executed().includes('SELECT count(*) AS n FROM big'));
  });

  it("the request's datasets pick what is sampled; samples hold ≤ 3 distinct values per column and 3 rows", async () => {
    script('SELECT 1 AS x');
    await nsql({ query: 'q', datasets: ['BIG'] });
    const prompt = llm.chats[0]?.messages[0]?.content ?? '';
    assert.match(prompt, /Table people \(7 columns\)/);
    assert.match(prompt, /Table big \(3 columns\)/);
    const samples = prompt.slice(prompt.indexOf('## Sample data'));
    assert.doesNotMatch(samples, /Table people/);
    const distinct = /Table big: up to 3 distinct values per column\n((?: {2}.*\n)+)/.exec(samples)?.[1] ?? '';
    const lines = distinct.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    for (const line of lines) {
      const values = line.split(': ')[1]?.split(' | ') ?? [];
      assert.equal(values.length, 3, line);
      assert.equal(new Set(values).size, 3, line);
    }
    const rows = /Table big: (\d+) random rows\n {2}id \| label \| grp\n((?: {2}.*\n)+)/.exec(samples);
    assert.equal(rows?.[1], '3');
    assert.equal(rows?.[2]?.trimEnd().split('\n').length, 3);
  });

  it('sample_data_enabled: false sends schemas only; a system_prompt replaces the instructions', async () => {
    script('SELECT 1 AS x');
    await nsql({ query: 'q', model: 'custom', sample_data_enabled: false });
    const prompt = llm.chats[0]?.messages[0]?.content ?? '';
    assert.ok(prompt.startsWith('Answer in SQL, briefly.\n\n## Tables'));
    assert.doesNotMatch(prompt, /Sample data|PostgreSQL-compatible/);
  });

  it('strict request bodies: 400 naming the problem', async () => {
    const cases: [string, RegExp][] = [
      ['{', /^Invalid JSON body/],
      ['[]', /expected a JSON object/],
      ['{}', /missing field 'query'/],
      ['{"query": "  "}', /'query' is empty/],
      ['{"query": 1}', /'query' must be a string/],
      ['{"query": "q", "stream": "yes"}', /'stream' must be a boolean/],
      ['{"query": "q", "datasets": "people"}', /'datasets' must be an array of strings/],
      ['{"query": "q", "temperature": 0}', /unknown field 'temperature'/],
    ];
    for (const [body, expected] of cases) {
      const a = await post(`${t.base}/v1/nsql`, body, { 'content-type': 'application/json' });
      assert.equal(a.status, 400, body);
      assert.match(a.text, expected, body);
    }
    assert.equal(llm.chats.length, 0);
  });
});
