// The prompt NSQL sends for the built-in TPC-H sample: every table's schema, samples of each, within the budget.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type RunningServer, startServer } from '../../server/main.js';
import { CHARS_PER_TOKEN, CONTEXT_TOKEN_BUDGET } from '../../server/nsql/nsql-context.js';
import { prepareSample } from '../../server/sample/prepare-sample.js';
import { type FakeLlm, startFakeLlm } from '../helpers/fake-llm.js';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';

const TABLES = ['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier'];
let llm: FakeLlm;
let server: RunningServer;

before(async () => {
  const dir = await makeTempDir();
  const sample = prepareSample(dir);
  await sample.generate();
  llm = await startFakeLlm(() => 'SELECT r_name FROM region ORDER BY r_name LIMIT 2');
  const manifest = {
    ...sample.manifest,
    models: [{ name: 'nql', from: 'openai:fake-sql', params: { endpoint: llm.endpoint } }],
  };
  server = await startServer({ manifest, baseDir: dir, host: '127.0.0.1', port: 0, workers: 2, log: () => {} });
});
after(async () => {
  await server.close();
  await llm.close();
});

it('the TPC-H sample prompt: 8 tables with columns, 3 values per column, 3 rows each, within the budget', async () => {
  const a = await post(`http://127.0.0.1:${server.port}/v1/nsql`, JSON.stringify({ query: 'Which regions exist?' }));
  assert.equal(a.status, 200);
  assert.deepEqual(JSON.parse(a.text), [{ r_name: 'AFRICA' }, { r_name: 'AMERICA' }]);
  const [system, user] = llm.chats[0]?.messages ?? [];
  if (process.env.NSQL_PROMPT) process.stdout.write(`${system?.content}\n--- user ---\n${user?.content}\n`);
  assert.equal(user?.content, 'Which regions exist?');
  const prompt = system?.content ?? '';
  for (const table of TABLES) {
    assert.match(prompt, new RegExp(`\\nTable ${table} \\(\\d+ columns\\):\\n`), table);
    assert.match(prompt, new RegExp(`\\nTable ${table}: up to 3 distinct values per column\\n`), table);
    assert.match(prompt, new RegExp(`\\nTable ${table}: 3 random rows\\n`), table);
  }
  assert.match(prompt, /\n {2}l_extendedprice numeric\(15,2\) NOT NULL\n|\n {2}l_extendedprice numeric\(15,2\)\n/);
  assert.match(prompt, /\n {2}r_name: (\S+)( \| \S+){2}\n/);
  assert.ok(prompt.length < CONTEXT_TOKEN_BUDGET * CHARS_PER_TOKEN + 2000, `${prompt.length} chars`);
});
