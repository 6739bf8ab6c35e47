// DatasetRuntime with a scripted loader: what each load asks for (mode, refresh SQL, previous), retries, cancels, the queue.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatasetError, type DatasetSpec } from '../../../../catalog/datasets.js';
import type { RefreshRequest, RefreshResult } from '../../../../catalog/refresh.js';
import type { TableEntry } from '../../../../catalog/snapshot.js';
import type { DatasetConfig, RefreshConfig } from '../../../../server/config/acceleration-config.js';
import { DatasetRuntime } from '../../../../server/datasets/dataset-runtime.js';
import {
  DatasetNotFoundError,
  DatasetRequestError,
  NotAcceleratedError,
} from '../../../../server/datasets/datasets.js';

const REFRESH: RefreshConfig = {
  mode: 'full',
  checkIntervalMs: null,
  sql: null,
  jitterMaxMs: 0,
  retryEnabled: true,
  retryMaxAttempts: null,
  onStartup: 'auto',
};

function dataset(name: string, refresh: Partial<RefreshConfig> | null = {}): DatasetConfig {
  return {
    name,
    from: `file:${name}.parquet`,
    accelerated: refresh !== null,
    ...(refresh === null ? {} : { timeColumn: 'ts', refresh: { ...REFRESH, ...refresh } }),
  };
}

/** A loader whose answers the test decides: each call waits for `next()` to settle it, or fails while `failing`. */
class ScriptedLoader {
  readonly calls: RefreshRequest[] = [];
  failing: DatasetError | null = null;
  hold = false;
  /** Answer the entry serving, as an append that found nothing new does. */
  nothingNew = false;
  running = 0;
  maxRunning = 0;
  readonly #held: (() => void)[] = [];
  #serial = 0;

  readonly load = async (request: RefreshRequest): Promise<RefreshResult> => {
    this.calls.push(request);
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      if (this.hold) await new Promise<void>((r) => this.#held.push(r));
      if (this.failing !== null) throw this.failing;
      if (this.nothingNew && request.previous) return { entry: request.previous, rows: 1, loadedRows: 0 };
      const entry: TableEntry = { name: request.spec.name, kind: 'fake', serial: ++this.#serial };
      return { entry, rows: 1, loadedRows: 1 };
    } finally {
      this.running--;
    }
  };

  /** Lets the oldest held load finish. */
  release(): void {
    this.#held.shift()?.();
  }
}

const FAST = { initialMs: 5, maxMs: 20 };

function makeRuntime(
  configs: DatasetConfig[],
  loader: ScriptedLoader,
  checkSql = async (_spec: DatasetSpec, _sql: string) => {},
) {
  const published: TableEntry[] = [];
  const logs: string[] = [];
  const runtime = new DatasetRuntime(configs, {
    baseDir: '/b',
    backoff: FAST,
    random: () => 0.5,
    load: loader.load,
    checkSql,
    log: (line) => logs.push(line),
  });
  const serve = () => runtime.serve((_name, entry) => published.push(entry));
  return { runtime, published, logs, serve };
}

async function until(check: () => boolean, what: string, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

const missing = new DatasetError(0, 't', 'no such file or folder: /b/t.parquet', true, 'source');

describe('DatasetRuntime', () => {
  it('a first load that fails is Error, stands in with its message, retries with backoff and swaps in', async () => {
    const loader = new ScriptedLoader();
    loader.failing = missing;
    const { runtime, published, logs, serve } = makeRuntime([dataset('t')], loader);
    const first = await runtime.start();
    assert.equal(runtime.settled, true);
    const message = 'Dataset t (file): no such file or folder: /b/t.parquet';
    assert.deepEqual(first.tables, [{ name: 't', kind: 'unavailable', message }]);
    assert.deepEqual(runtime.list()[0], {
      name: 't',
      from: 'file:t.parquet',
      accelerated: true,
      status: 'Error',
      error: { category: 'dataset', type: 'source', code: 'dataset.source' },
      errorMessage: message,
      properties: { search: 'unsupported', vector_search: 'unsupported' },
    });
    serve();
    await until(() => loader.calls.length >= 3, 'two retries');
    assert.equal(published.length, 0, 'the same error publishes nothing new');
    loader.failing = null;
    await until(() => runtime.list()[0]?.status === 'Ready', 'the retry to load');
    assert.equal(published.at(-1)?.kind, 'fake');
    assert.equal(runtime.list()[0]?.error, null);
    assert.ok(logs.some((l) => l.includes('retrying in')));
    await runtime.close();
  });

  it('an interval or a jitter beyond what one Node timer holds waits instead of firing at once', async () => {
    const loader = new ScriptedLoader();
    const { runtime, serve } = makeRuntime([dataset('t', { checkIntervalMs: 3.6e12 })], loader);
    await runtime.start();
    serve();
    assert.equal(await runtime.refresh('t', { jitterMaxMs: 1e15 }).then(() => 'triggered'), 'triggered');
    await new Promise((r) => setTimeout(r, 100));
    // A plain setTimeout of 3.6e12 ms (1,000,000 h) fires after 1 ms: here neither it nor the jittered refresh ran.
    assert.equal(loader.calls.length, 1, 'only the first load ran');
    await runtime.close();
  });

  it('an on-demand refresh_sql applies to that refresh only; setRefreshSql lasts and the next refresh uses it', async () => {
    const loader = new ScriptedLoader();
    const { runtime, serve } = makeRuntime([dataset('t', { sql: 'SELECT a FROM t' })], loader);
    await runtime.start();
    serve();
    const sqlOfNext = async (overrides = {}) => {
      const before = loader.calls.length;
      assert.equal(await runtime.refresh('T', overrides), 't', 'matched case-insensitively, configured name back');
      await until(() => loader.calls.length > before && runtime.list()[0]?.status === 'Ready', 'the refresh');
      return loader.calls.at(-1)?.refreshSql;
    };
    assert.equal(loader.calls[0]?.refreshSql, 'SELECT a FROM t', 'the first load uses the manifest SQL');
    assert.equal(await sqlOfNext({ refreshSql: 'SELECT b FROM t' }), 'SELECT b FROM t');
    assert.equal(await sqlOfNext(), 'SELECT a FROM t');
    assert.equal(await runtime.setRefreshSql('t', 'SELECT c FROM t'), 't');
    assert.equal(loader.calls.length, 3, 'setRefreshSql starts no refresh');
    assert.equal(await sqlOfNext(), 'SELECT c FROM t');
    assert.equal(await sqlOfNext({ refreshSql: 'SELECT d FROM t' }), 'SELECT d FROM t');
    assert.equal(await sqlOfNext(), 'SELECT c FROM t');
    await runtime.close();
  });

  it('append extends the data serving, but reads it all again once the refresh SQL changed', async () => {
    const loader = new ScriptedLoader();
    const { runtime, published, serve } = makeRuntime([dataset('t', { mode: 'append' })], loader);
    await runtime.start();
    serve();
    const next = async (overrides = {}) => {
      const before = loader.calls.length;
      await runtime.refresh('t', overrides);
      await until(() => loader.calls.length > before && runtime.list()[0]?.status === 'Ready', 'the refresh');
      const call = loader.calls.at(-1)!;
      // Each load's entry has the serial of its call: the previous is the one the call before built.
      return [call.mode, call.previous?.serial === loader.calls.length - 1];
    };
    assert.equal(loader.calls[0]?.mode, 'full', 'the first load is full');
    assert.equal(loader.calls[0]?.timeColumn, 'ts');
    assert.deepEqual(await next(), ['append', true]);
    assert.deepEqual(await next({ refreshMode: 'full' }), ['full', true]);
    await runtime.setRefreshSql('t', 'SELECT * FROM t WHERE x > 0');
    assert.deepEqual(await next(), ['full', true], 'new SQL: the old rows were selected by another query');
    assert.deepEqual(await next(), ['append', true]);
    const count = published.length;
    const calls = loader.calls.length;
    loader.nothingNew = true;
    await runtime.refresh('t');
    await until(
      () => loader.calls.length > calls && runtime.list()[0]?.status === 'Ready',
      'an append finding nothing',
    );
    assert.equal(published.length, count, 'nothing new: nothing published, no cached result dropped');
    await runtime.close();
  });

  it('a refresh asked for while one runs cancels it and restarts; the cancelled result is dropped', async () => {
    const loader = new ScriptedLoader();
    const { runtime, published, serve } = makeRuntime([dataset('t')], loader);
    await runtime.start();
    serve();
    loader.hold = true;
    await runtime.refresh('t');
    await until(() => loader.calls.length === 2, 'the first refresh to start');
    assert.equal(runtime.list()[0]?.status, 'Refreshing');
    await runtime.refresh('t', { refreshSql: 'SELECT 2' });
    assert.equal(loader.calls[1]?.signal?.aborted, true);
    loader.release();
    await until(() => loader.calls.length === 3, 'the restarted refresh');
    loader.release();
    await until(() => runtime.list()[0]?.status === 'Ready', 'the restarted refresh to end');
    assert.equal(published.length, 1, 'only the restarted refresh published');
    assert.equal(published[0]?.serial, 3);
    await runtime.close();
  });

  it('runs one load at a time across datasets', async () => {
    const loader = new ScriptedLoader();
    const { runtime, serve } = makeRuntime([dataset('a'), dataset('b'), dataset('c')], loader);
    loader.hold = true;
    const started = runtime.start();
    for (let i = 1; i <= 3; i++) {
      await until(() => loader.calls.length === i, `load ${i}`);
      assert.equal(runtime.settled, false);
      loader.release();
    }
    await started;
    serve();
    await Promise.all(['a', 'b', 'c'].map((n) => runtime.refresh(n)));
    for (let i = 4; i <= 6; i++) {
      await until(() => loader.calls.length === i, `load ${i}`);
      loader.release();
    }
    await until(() => runtime.list().every((d) => d.status === 'Ready'), 'the refreshes');
    assert.equal(loader.maxRunning, 1);
    await runtime.close();
  });

  it('a failed refresh keeps the data serving, says so, retries up to the limit, then waits for the interval', async () => {
    const loader = new ScriptedLoader();
    const config = dataset('t', { retryMaxAttempts: 2, checkIntervalMs: 60_000 });
    const { runtime, published, serve } = makeRuntime([config], loader);
    await runtime.start();
    serve();
    loader.failing = new DatasetError(0, 't', 'cannot load: bad footer', false, 'source');
    await runtime.refresh('t');
    await until(() => loader.calls.length === 4, 'the refresh and its 2 retries');
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(loader.calls.length, 4, 'no third retry: the next try is the scheduled refresh');
    assert.equal(published.length, 0, 'the old data keeps serving');
    const state = runtime.list()[0]!;
    assert.equal(state.status, 'Error');
    assert.match(
      state.errorMessage ?? '',
      /^Dataset t \(file\): refresh failed; serving the data loaded at \d{4}-\d\d-\d\dT[\d:.]+Z: cannot load: bad footer$/,
    );
    loader.failing = null;
    await runtime.refresh('t');
    await until(() => runtime.list()[0]?.status === 'Ready', 'recovery');
    assert.equal(runtime.list()[0]?.errorMessage, null);
    await runtime.close();
  });

  it('refreshes by interval, and stops at close', async () => {
    const loader = new ScriptedLoader();
    const { runtime, serve } = makeRuntime([dataset('t', { checkIntervalMs: 10 })], loader);
    await runtime.start();
    serve();
    await until(() => loader.calls.length >= 4, 'three scheduled refreshes');
    await runtime.close();
    const calls = loader.calls.length;
    assert.equal(runtime.list()[0]?.status, 'ShuttingDown');
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(loader.calls.length, calls);
    await assert.rejects(runtime.refresh('t'), /shutting down/);
  });

  it('refuses unknown datasets, non-accelerated ones, bad overrides and SQL the check rejects', async () => {
    const loader = new ScriptedLoader();
    const checkSql = async (_spec: DatasetSpec, sql: string) => {
      if (sql.includes('nope')) throw new Error('column "nope" does not exist');
    };
    const { runtime, serve } = makeRuntime([dataset('t'), dataset('files', null)], loader, checkSql);
    await runtime.start();
    serve();
    await assert.rejects(runtime.refresh('ghost'), DatasetNotFoundError);
    await assert.rejects(runtime.refresh('FILES'), (e: Error) => {
      assert.ok(e instanceof NotAcceleratedError);
      assert.equal(e.message, 'Dataset files does not have acceleration enabled');
      return true;
    });
    await assert.rejects(runtime.refresh('t', { refreshSql: 'SELECT nope FROM t' }), {
      constructor: DatasetRequestError,
      message: 'column "nope" does not exist',
    });
    await assert.rejects(runtime.refresh('t', { refreshMode: 'changes' as 'full' }), DatasetRequestError);
    await assert.rejects(runtime.refresh('t', { jitterMaxMs: -1 }), DatasetRequestError);
    await assert.rejects(runtime.setRefreshSql('ghost', 'SELECT 1'), DatasetNotFoundError);
    await assert.rejects(runtime.setRefreshSql('files', 'SELECT 1'), DatasetRequestError);
    await assert.rejects(runtime.setRefreshSql('t', 'SELECT nope FROM t'), DatasetRequestError);
    await assert.rejects(runtime.reload('ghost'), /no dataset named "ghost"/);
    const unreadable = new DatasetError(0, 't', 'no such file or folder: /b/t.parquet', true);
    const { runtime: other } = makeRuntime([dataset('t')], loader, async () => {
      throw unreadable;
    });
    await assert.rejects(other.setRefreshSql('t', 'SELECT 1'), (e) => e === unreadable, 'a source failure is no 400');
    assert.equal(loader.calls.length, 1, 'nothing refused started a load');
    await runtime.close();
  });
});
