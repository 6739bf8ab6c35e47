// Security settings floe cannot honour stop `floe run` before it listens: exit 2 and the key path, never a warning.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../helpers/fixtures.js';

const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));
const SECRET = 'sk-never-print-me-42';

/** Runs `floe run` on a manifest with `runtime` (YAML lines) and returns its exit code and output. */
async function runWith(runtime: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'floe.yaml'), `version: v1\nkind: Spicepod\nname: t\nruntime:\n${runtime}`);
  const child = spawn(process.execPath, [CLI, 'run', '--http', '127.0.0.1:0', '--workers', '1', '--flight', 'off'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FLOE_TEST_SECRET: SECRET },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  // A server that started anyway is the failure: stop it rather than hang the suite.
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

const CASES: [string, string, RegExp][] = [
  [
    'an unknown auth provider',
    '  auth:\n    oidc:\n      issuer: https://id.example\n',
    /runtime\.auth\.oidc: auth provider 'oidc' is not supported/,
  ],
  ['API keys without keys', '  auth:\n    api-key:\n      enabled: true\n', /runtime\.auth\.api-key\.keys: .*no keys/],
  ['an empty key list', '  auth:\n    api_key:\n      keys: []\n', /runtime\.auth\.api_key\.keys: .*no keys/],
  [
    'a key given twice',
    '  auth:\n    api-key:\n      keys: ["${env:FLOE_TEST_SECRET}", "${env:FLOE_TEST_SECRET}:rw"]\n',
    /runtime\.auth\.api-key\.keys\[1\]: the same API key as keys\[0\]/,
  ],
  [
    'TLS with certificate files',
    '  tls:\n    enabled: true\n    certificate_file: cert.pem\n    key_file: key.pem\n',
    /runtime\.tls\.enabled: TLS is not supported yet/,
  ],
  ['TLS without certificates', '  tls:\n    enabled: true\n', /runtime\.tls\.enabled: .*no certificate and key/],
  [
    'a CORS origin with a path',
    '  cors:\n    enabled: true\n    allowed_origins: ["https://a.example/x"]\n',
    /runtime\.cors\.allowed_origins\[0\]: /,
  ],
  [
    'a rate limit without a rate',
    '  http:\n    rate_limit:\n      enabled: true\n',
    /runtime\.http\.rate_limit\.requests_per_second: /,
  ],
];

describe('floe run refuses security settings it cannot honour', () => {
  for (const [what, runtime, expected] of CASES) {
    it(`${what}: exit 2 with the key path`, async () => {
      const { code, stdout, stderr } = await runWith(runtime);
      assert.equal(code, 2, stderr);
      assert.match(stderr, expected);
      assert.doesNotMatch(stdout, /floe ready/);
      assert.ok(!stderr.includes(SECRET) && !stdout.includes(SECRET), stderr);
    });
  }
});
