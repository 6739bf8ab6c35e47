// The bench CLI's argument handling: a bad option prints the problem and the usage (exit 2), never a stack trace;
// --help anywhere prints the usage (exit 0).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parseQueryIds } from '../../../bench/tpch/run-tpch.js';

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

test('bench CLI: --queries takes numbers and ranges; anything else is a usage error, not a stack trace', () => {
  assert.deepEqual(parseQueryIds('1,q6, 12..14,20-21'), ['q01', 'q06', 'q12', 'q13', 'q14', 'q20', 'q21']);
  for (const bad of ['0', '23', '5..3', '1..', 'x', '']) assert.equal(parseQueryIds(bad), null, bad);
  const r = run('tpch', '--queries', '1..30', '--no-save');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--queries takes query numbers 1-22/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test('bench CLI: --warmups is a whole number of at least 1', () => {
  for (const bad of ['0', '1.5', 'many']) {
    const r = run('tpch', '--warmups', bad, '--no-save');
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--warmups is a whole number, at least 1/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});

test('bench CLI: clickbench takes queries 0-42 and a whole number of rows', () => {
  assert.deepEqual(parseQueryIds('0,41..42', 0, 42), ['q00', 'q41', 'q42']);
  assert.equal(parseQueryIds('43', 0, 42), null);
  for (const [args, problem] of [
    [['--queries', '43'], /--queries takes query numbers 0-42/],
    [['--rows', '0'], /--rows is a whole number, at least 1/],
    [['--mode', 'disk'], /--mode is files, memory or both/],
  ] as const) {
    const r = run('clickbench', ...args, '--no-save');
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, problem);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  }
});
