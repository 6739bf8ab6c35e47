// The floe command line: defaults, every flag, and the usage errors that exit with 2.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCliArgs, UsageError } from '../../../server/cli-args.js';

describe('parseCliArgs', () => {
  it('defaults to 127.0.0.1:8090, no manifest, one worker per core', () => {
    assert.deepEqual(parseCliArgs(['run']), {
      command: 'run',
      manifest: undefined,
      host: '127.0.0.1',
      port: 8090,
      workers: undefined,
    });
  });

  it('reads --manifest, --http and --workers', () => {
    assert.deepEqual(parseCliArgs(['run', '--manifest', 'pod.yaml', '--http', '0.0.0.0:9000', '--workers', '3']), {
      command: 'run',
      manifest: 'pod.yaml',
      host: '0.0.0.0',
      port: 9000,
      workers: 3,
    });
    assert.equal((parseCliArgs(['run', '--http=[::1]:0']) as { host: string }).host, '::1');
    assert.equal((parseCliArgs(['run', '--http', ':7000']) as { host: string }).host, '127.0.0.1');
  });

  it('reads --metrics HOST:PORT or off (absent: left to the manifest and the default)', () => {
    const metrics = (argv: string[]) => (parseCliArgs(['run', ...argv]) as { metrics?: unknown }).metrics;
    assert.deepEqual(metrics(['--metrics', '0.0.0.0:9100']), { host: '0.0.0.0', port: 9100 });
    assert.deepEqual(metrics(['--metrics', ':0']), { host: '127.0.0.1', port: 0 });
    assert.equal(metrics(['--metrics', 'off']), 'off');
    assert.equal(metrics([]), undefined);
  });

  it('reads --flight HOST:PORT or off (absent: left to the manifest and the default)', () => {
    const flight = (argv: string[]) => (parseCliArgs(['run', ...argv]) as { flight?: unknown }).flight;
    assert.deepEqual(flight(['--flight', '0.0.0.0:50052']), { host: '0.0.0.0', port: 50052 });
    assert.equal(flight(['--flight', 'off']), 'off');
    assert.equal(flight([]), undefined);
    assert.throws(() => parseCliArgs(['run', '--flight', 'on']), /--flight expects HOST:PORT, got 'on'/);
  });

  it('answers --help', () => {
    assert.deepEqual(parseCliArgs(['--help']), { command: 'help' });
    assert.deepEqual(parseCliArgs(['run', '-h']), { command: 'help' });
  });

  const bad: [string[], RegExp][] = [
    [[], /missing command/],
    [['serve'], /unknown command 'serve'/],
    [['run', '--port', '1'], /Unknown option '--port'/],
    [['run', '--http', 'localhost'], /--http expects HOST:PORT, got 'localhost'/],
    [['run', '--http', 'h:99999'], /--http expects HOST:PORT/],
    [['run', '--workers', '0'], /--workers expects a whole number/],
    [['run', '--workers', 'two'], /--workers expects a whole number/],
    [['run', '--manifest'], /argument missing/],
    [['run', '--metrics', 'on'], /--metrics expects HOST:PORT, got 'on'/],
  ];
  for (const [argv, message] of bad) {
    it(`rejects ${argv.join(' ') || '(nothing)'}`, () => {
      assert.throws(
        () => parseCliArgs(argv),
        (e: Error) => e instanceof UsageError && message.test(e.message),
      );
    });
  }
});
