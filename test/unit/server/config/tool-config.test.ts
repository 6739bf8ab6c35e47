// The manifest's `tools:` (proxied MCP servers): sources, defaults, each problem by key, and no secret in a message.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secrets:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Manifest, parseManifest } from '../../../../server/config/manifest.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../../../../server/config/tool-config.js';
import { MANIFEST_BASE, manifestProblem } from '../../../helpers/manifest-runtime.js';

const TOKEN = 'tok-Secret-0123456789abcdef';

function load(tools: object[], env: NodeJS.ProcessEnv = { MCP_TOKEN: TOKEN }): Manifest {
  return parseManifest({ ...MANIFEST_BASE, tools }, '/base', env);
}

function problem(tools: object[]): string {
  const message = manifestProblem(() => load(tools));
  assert.ok(!message.includes(TOKEN), `the token leaked: ${message}`);
  return message;
}

describe('tools in the manifest', () => {
  it('stdio: the executable, mcp_args split on whitespace, env as strings, 30 s default, cwd = manifest folder', () => {
    const m = load([{ name: 'srv', from: 'mcp:node', params: { mcp_args: ' a.js  stdio ' }, env: { N: 1, B: true } }]);
    assert.deepEqual(m.tools, [
      {
        name: 'srv',
        from: 'mcp:node',
        source: { kind: 'stdio', command: 'node', args: ['a.js', 'stdio'], cwd: '/base' },
        headers: {},
        env: { N: '1', B: 'true' },
        timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
      },
    ]);
    assert.deepEqual(m.warnings, []);
  });

  it('a relative executable path is resolved against the manifest folder; mcp_args may be a list', () => {
    const [t] = load([{ name: 's', from: 'mcp:./bin/srv', params: { mcp_args: ['a b', 'c'] } }]).tools;
    assert.deepEqual(t?.source, { kind: 'stdio', command: '/base/bin/srv', args: ['a b', 'c'], cwd: '/base' });
  });

  it('http: /sse paths use SSE, others Streamable HTTP first; auth_token and mcp_headers become headers', () => {
    const m = load([
      {
        name: 'a',
        from: 'mcp:https://user:pw@mcp.example.com/v1/sse?key=${secrets:MCP_TOKEN}',
        params: { auth_token: '${secrets:MCP_TOKEN}', timeout: '2s', mcp_headers: 'X-One: 1; X-Two: a:b' },
      },
      { name: 'b', from: 'mcp:http://127.0.0.1:9/mcp', params: { mcp_headers: { 'X-Map': 'v' } } },
    ]);
    const [a, b] = m.tools;
    assert.equal(a?.source.kind === 'http' && a.source.transport, 'sse');
    assert.equal(a?.from, 'mcp:https://mcp.example.com/v1/sse');
    assert.deepEqual(a?.headers, { 'X-One': '1', 'X-Two': 'a:b', Authorization: `Bearer ${TOKEN}` });
    assert.equal(a?.timeoutMs, 2000);
    assert.ok(!JSON.stringify(m.warnings).includes(TOKEN));
    assert.deepEqual(b?.source, { kind: 'http', url: 'http://127.0.0.1:9/mcp', transport: 'auto' });
    assert.deepEqual(b?.headers, { 'X-Map': 'v' });
  });

  it('builtin: entries and unknown params are warnings; the entry is skipped', () => {
    const m = load([
      { name: 'sql', from: 'builtin:sql' },
      { name: 'x', from: 'mcp:node', params: { mcp_args: 'x.js', retries: 3 } },
    ]);
    assert.deepEqual(
      m.tools.map((t) => t.name),
      ['x'],
    );
    assert.deepEqual(m.warnings, [
      "tools[0].from: builtin tools are not supported yet; ignored (floe's built-ins are always on)",
      'tools[1].params.retries: not supported yet; ignored',
    ]);
  });

  const cases: [string, object[], RegExp][] = [
    ['a name with /', [{ name: 'a/b', from: 'mcp:node' }], /^tools\[0\]\.name: expected 1 to 128 letters/],
    ['a name with a space', [{ name: 'a b', from: 'mcp:node' }], /^tools\[0\]\.name:/],
    [
      'a name twice (any case)',
      [
        { name: 'srv', from: 'mcp:node' },
        { name: 'SRV', from: 'mcp:node' },
      ],
      /tools\[1\]\.name: tool 'SRV' is already declared at tools\[0\]/,
    ],
    ['a bad timeout', [{ name: 's', from: 'mcp:node', params: { timeout: 'soon' } }], /tools\[0\]\.params\.timeout/],
    ['a zero timeout', [{ name: 's', from: 'mcp:node', params: { timeout: '0s' } }], /params\.timeout: invalid/],
    ['another source', [{ name: 's', from: 'openai:x' }], /tools\[0\]\.from: expected mcp:/],
    ['no executable', [{ name: 's', from: 'mcp:' }], /tools\[0\]\.from: expected one executable/],
    ['a bad URL', [{ name: 's', from: `mcp:http://${TOKEN}:x` }], /tools\[0\]\.from: not a valid/],
    [
      'a header without a value',
      [{ name: 's', from: 'mcp:http://h/mcp', params: { mcp_headers: `X-A ${TOKEN}` } }],
      /params\.mcp_headers: header '\?' needs a one-line value/,
    ],
    ['an unknown key', [{ name: 's', from: 'mcp:node', with: 1 }], /tools\[0\]\.with: unknown key/],
  ];
  for (const [what, tools, expected] of cases) {
    it(`refuses ${what}`, () => assert.match(problem(tools), expected));
  }

  it('at most 100 stdio servers (contract §8); HTTP entries do not count', () => {
    const stdio = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `s${i}`, from: 'mcp:node' }));
    assert.equal(load([...stdio(100), { name: 'h', from: 'mcp:http://h/mcp' }]).tools.length, 101);
    assert.match(problem(stdio(101)), /^tools: 101 stdio MCP servers; at most 100 may run/);
  });
});
