// The `floe` executable as a user runs it: ready line, queries, signals, exit codes, the built-in sample.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.js';
import { makeTempDir, writePeople } from '../helpers/fixtures.js';
import { get, post } from '../helpers/http.js';

const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));

interface Cli {
  readonly child: ChildProcess;
  /** Resolves with the URL from the `floe ready: <url>` line (rejects if the process exits first). */
  readonly ready: Promise<string>;
  readonly exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** What the process has written to stdout so far. */
  stdout(): string;
}

const running = new Set<ChildProcess>();
// A failed assertion must not leave a server running (it would keep this test process alive).
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

function runCli(args: readonly string[], cwd: string): Cli {
  // Off unless a test asks: the default metrics port (9090) is one for the whole machine.
  const metrics = args[0] === 'run' && !args.includes('--metrics') ? ['--metrics', 'off'] : [];
  // The same for Flight's default port (50051).
  const flight = args[0] === 'run' && !args.includes('--flight') ? ['--flight', 'off'] : [];
  const child = spawn(process.execPath, [CLI, ...args, ...metrics, ...flight], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d;
      const match = /^floe ready: (http:\/\/\S+)$/m.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    exit.then(({ code }) => reject(new Error(`floe exited with ${code} before ready:\n${stderr}`)));
  });
  ready.catch(() => {});
  return { child, ready, exit, stdout: () => stdout };
}

describe('floe run', () => {
  it('serves a manifest on --http, answers queries, and exits 0 on SIGTERM', async () => {
    const dir = await makeTempDir();
    await writePeople(join(dir, 'data', 'people.parquet'));
    await writeFile(
      join(dir, 'floe.yaml'),
      'version: v1\nkind: Spicepod\nname: t\ndatasets:\n  - from: file:data/\n    name: people\n',
    );
    const args = ['run', '--manifest', join(dir, 'floe.yaml'), '--http', '127.0.0.1:0', '--workers', '1'];
    const cli = runCli([...args, '--metrics', '127.0.0.1:0', '--flight', '127.0.0.1:0'], dir);
    const url = await cli.ready;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await post(`${url}/v1/sql`, 'SELECT name FROM people WHERE id = 2', { accept: 'text/csv' });
    assert.deepEqual([res.status, res.text], [200, '"name"\nBob\n']);
    const metricsUrl = /^floe metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)$/m.exec(cli.stdout())?.[1] as string;
    assert.match((await get(metricsUrl)).text, /^query_executions 1$/m);
    assert.match(cli.stdout(), /^floe flight: grpc:\/\/127\.0\.0\.1:\d+$/m);
    cli.child.kill('SIGTERM');
    const { code } = await cli.exit;
    assert.equal(code, 0);
  });

  it('serves the built-in TPC-H sample without a manifest, generating it once', async () => {
    const dir = await makeTempDir();
    const first = runCli(['run', '--http', '127.0.0.1:0', '--workers', '1'], dir);
    const url = await first.ready;
    const count = async (table: string) => {
      const res = await post(`${url}/v1/sql`, `SELECT count(*) AS n FROM ${table}`);
      assert.equal(res.status, 200, res.text);
      return JSON.parse(res.text)[0].n as number;
    };
    const sizes = [await count('region'), await count('nation'), await count('customer'), await count('orders')];
    assert.deepEqual(sizes, [5, 25, 150, 1500]);
    const lines = await count('lineitem');
    assert.ok(lines > 4000 && lines < 8000, `lineitem has ${lines} rows`);
    assert.ok((await count('part')) > 0 && (await count('supplier')) > 0 && (await count('partsupp')) > 0);
    first.child.kill('SIGINT');
    const done = await first.exit;
    assert.equal(done.code, 0);
    assert.match(done.stdout, /curl -d 'SELECT .+' http:\/\/127\.0\.0\.1:\d+\/v1\/sql/);

    const file = join(dir, '.floe', 'sample', 'lineitem.parquet');
    const before = (await stat(file)).mtimeMs;
    const second = runCli(['run', '--http', '127.0.0.1:0', '--workers', '1'], dir);
    await second.ready;
    assert.equal((await stat(file)).mtimeMs, before);
    second.child.kill('SIGTERM');
    assert.equal((await second.exit).code, 0);
  });

  it('exits 2 naming the key path when the manifest is invalid', async () => {
    const dir = await makeTempDir();
    await writeFile(
      join(dir, 'floe.yaml'),
      'version: v1\nkind: Spicepod\nname: t\ndatasets:\n  - from: file:a.parquet\n    name: a\n  - from: ftp://host/b\n    name: b\n',
    );
    const { code, stderr } = await runCli(['run', '--http', '127.0.0.1:0'], dir).exit;
    assert.equal(code, 2);
    assert.match(stderr, /datasets\[1\]\.from: unknown connector 'ftp'/);
  });

  it('serves when a dataset names no file: its queries fail with the reason, it is retried', async () => {
    const dir = await makeTempDir();
    await writeFile(
      join(dir, 'pod.yaml'),
      'version: v1\nkind: Spicepod\nname: t\ndatasets:\n  - from: file:nothing/here.parquet\n    name: a\n',
    );
    const cli = runCli(['run', '--manifest', 'pod.yaml', '--http', '127.0.0.1:0'], dir);
    const res = await post(`${await cli.ready}/v1/sql`, 'SELECT * FROM a');
    assert.equal(res.status, 400);
    assert.match(res.text, /Dataset a \(file\): no such file or folder: .*nothing\/here\.parquet/);
    cli.child.kill('SIGTERM');
    const { code, stderr } = await cli.exit;
    assert.equal(code, 0);
    assert.match(
      stderr,
      /^floe: dataset a: Dataset a \(file\): no such file or folder: .*\nfloe: dataset a: retrying in /m,
    );
  });

  it('exits 2 with the usage for a bad flag, and 0 for --help', async () => {
    const dir = await makeTempDir();
    const bad = await runCli(['run', '--htp', '1'], dir).exit;
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown option '--htp'[\s\S]*Usage: floe run/);
    const help = await runCli(['--help'], dir).exit;
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: floe run \[options\]/);
  });
});

describe("the server's V8 flags", () => {
  it("are in the executable's shebang and npm start, and this node accepts them", async () => {
    const flags = SERVER_NODE_FLAGS.join(' ');
    const shebang = (await readFile(CLI, 'utf8')).split('\n', 1)[0];
    assert.equal(shebang, `#!/usr/bin/env -S node ${flags}`);
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8'));
    assert.match(pkg.scripts.start, new RegExp(` node ${flags} dist/server/cli\\.js run$`));
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(7)'], { stdio: 'ignore' });
    assert.equal(await new Promise((resolve) => child.on('exit', resolve)), 7);
  });
});
