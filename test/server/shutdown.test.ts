// SIGTERM exits within its bound whatever the workers do: a regex stuck in a worker does not keep floe alive.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../helpers/fixtures.js';
import { post } from '../helpers/http.js';

const CLI = fileURLToPath(new URL('../../server/cli.js', import.meta.url));
const REGEX = "SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' ~ '^(a+)+$' AS m";

const children: ReturnType<typeof spawn>[] = [];
after(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('SIGTERM', () => {
  it('exits 0 within shutdown_timeout + 2 s while a worker is stuck in a regex', { timeout: 60_000 }, async () => {
    const dir = await makeTempDir();
    // Neither the time-out nor the kill grace will end the regex: only the shutdown bound can.
    const manifest = [
      'version: v1',
      'kind: Spicepod',
      'name: t',
      'runtime:',
      '  shutdown_timeout: 500ms',
      '  query:',
      '    timeout: 10m',
      '    kill_grace: 10m',
      '',
    ].join('\n');
    await writeFile(join(dir, 'floe.yaml'), manifest);
    const child = spawn(
      process.execPath,
      [CLI, 'run', '--manifest', join(dir, 'floe.yaml'), '--http', '127.0.0.1:0', '--workers', '1', '--flight', 'off'],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d;
        const m = /^floe ready: (\S+)$/m.exec(out);
        if (m) resolve(m[1] as string);
      });
      void exited.then((code) => reject(new Error(`exited ${code} before ready`)));
    });
    assert.equal((await post(`${url}/v1/sql`, 'SELECT 1 AS x')).status, 200);
    const stuck = post(`${url}/v1/sql`, REGEX).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    await new Promise((r) => setTimeout(r, 300));
    const signalled = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    const took = performance.now() - signalled;
    assert.equal(code, 0);
    assert.ok(took < 5000, `exit took ${took.toFixed(0)} ms`);
    // The stuck query's client is told why before its connection closes.
    const answer = await stuck;
    assert.ok(!(answer instanceof Error), String(answer));
    assert.equal(answer.status, 503);
    assert.equal(answer.text, 'Runtime is shutting down');
  });
});
