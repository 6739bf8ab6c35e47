// The acceleration refresh keys: Spice's defaults, durations, jitter, unsupported modes, and warnings by key path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Manifest, parseManifest } from '../../../../server/config/manifest.js';
import { MANIFEST_BASE, manifestProblem } from '../../../helpers/manifest-runtime.js';

function load(acceleration: object | undefined, extra: object = {}): Manifest {
  return parseManifest(
    { ...MANIFEST_BASE, datasets: [{ from: 'file:t.parquet', name: 't', acceleration, ...extra }] },
    '/b',
  );
}

function problem(acceleration: object, extra: object = {}): string {
  return manifestProblem(() => load(acceleration, extra));
}

describe('acceleration refresh keys', () => {
  it("defaults to Spice's: full, no interval, retries on without a limit, no jitter", () => {
    const m = load({ enabled: true });
    assert.deepEqual(m.datasets[0]?.refresh, {
      mode: 'full',
      checkIntervalMs: null,
      sql: null,
      jitterMaxMs: 0,
      retryEnabled: true,
      retryMaxAttempts: null,
      onStartup: 'auto',
    });
    assert.equal(m.datasets[0]?.timeColumn, undefined);
    assert.deepEqual(m.warnings, []);
  });

  it('reads every key, durations through parseDuration', () => {
    const m = load(
      {
        refresh_mode: 'append',
        refresh_check_interval: '1m 30s',
        refresh_sql: 'SELECT a FROM t WHERE a > 1',
        refresh_jitter_enabled: true,
        refresh_jitter_max: '500ms',
        refresh_retry_enabled: true,
        refresh_retry_max_attempts: 3,
        refresh_on_startup: 'always',
      },
      { time_column: 'ts' },
    );
    assert.deepEqual(m.datasets[0]?.refresh, {
      mode: 'append',
      checkIntervalMs: 90_000,
      sql: 'SELECT a FROM t WHERE a > 1',
      jitterMaxMs: 500,
      retryEnabled: true,
      retryMaxAttempts: 3,
      onStartup: 'always',
    });
    assert.equal(m.datasets[0]?.timeColumn, 'ts');
    assert.deepEqual(m.warnings, []);
  });

  it('jitter enabled without a max is 10% of the interval', () => {
    const m = load({ refresh_check_interval: '10s', refresh_jitter_enabled: true });
    assert.equal(m.datasets[0]?.refresh?.jitterMaxMs, 1000);
  });

  it('refuses changes mode as not supported yet and unknown modes, naming the key path', () => {
    assert.equal(
      problem({ refresh_mode: 'changes' }),
      "datasets[0].acceleration.refresh_mode: refresh mode 'changes' is not supported yet; use full or append",
    );
    assert.equal(
      problem({ refresh_mode: 'sometimes' }),
      "datasets[0].acceleration.refresh_mode: unknown refresh mode 'sometimes'; expected full or append",
    );
  });

  it('refuses malformed or zero durations, a negative retry count, an unknown refresh_on_startup', () => {
    assert.match(problem({ refresh_check_interval: 'soon' }), /refresh_check_interval: invalid duration 'soon'/);
    assert.match(problem({ refresh_check_interval: '0s' }), /refresh_check_interval: invalid duration '0s'/);
    assert.match(problem({ refresh_jitter_max: '1 fortnight' }), /refresh_jitter_max: invalid duration/);
    assert.match(problem({ refresh_retry_max_attempts: -1 }), /refresh_retry_max_attempts: /);
    assert.match(problem({ refresh_on_startup: 'never' }), /refresh_on_startup: /);
    assert.match(problem({}, { time_column: '' }), /datasets\[0\]\.time_column: /);
  });

  it('warns about refresh keys that do nothing: acceleration disabled, switches off', () => {
    const off = load({ enabled: false, refresh_check_interval: '10s', refresh_sql: 'SELECT * FROM t' });
    assert.equal(off.datasets[0]?.refresh, undefined);
    assert.deepEqual(off.warnings, [
      'datasets[0].acceleration.refresh_check_interval: ignored: acceleration is not enabled',
      'datasets[0].acceleration.refresh_sql: ignored: acceleration is not enabled',
    ]);
    const switches = load({ refresh_jitter_max: '1s', refresh_retry_enabled: false, refresh_retry_max_attempts: 2 });
    assert.deepEqual(switches.warnings, [
      'datasets[0].acceleration.refresh_jitter_max: ignored: refresh_jitter_enabled is not true',
      'datasets[0].acceleration.refresh_retry_max_attempts: ignored: refresh_retry_enabled is false',
    ]);
    assert.equal(switches.datasets[0]?.refresh?.jitterMaxMs, 0);
  });

  it('still accepts the refresh keys floe does not implement, with a warning', () => {
    const m = load({ refresh_cron: '0 * * * *', refresh_data_window: '1d' });
    assert.deepEqual(m.warnings, [
      'datasets[0].acceleration.refresh_cron: not supported yet; ignored',
      'datasets[0].acceleration.refresh_data_window: not supported yet; ignored',
    ]);
  });
});
