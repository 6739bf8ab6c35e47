// The bench CLI's argument handling: a bad option prints the problem and the usage (exit 2), never a stack trace;
// --help anywhere prints the usage (exit 0).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../bench/cli.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

test('bench CLI: an unknown option is a usage error, not a crash', () => {
  const r = run('tpch', '--bogus');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown option '--bogus'/);
  assert.match(r.stderr, /usage: npm run bench/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('bench CLI: --help after a command prints the usage', () => {
  const r = run('http', '--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /usage: npm run bench/);
});
