// `startServer`: the composition root: manifest -> HTTP listener -> datasets -> worker pool -> ready.
import { resolve } from 'node:path';
import { createAuthenticator } from './auth/authenticator.js';
import { RateLimiter } from './auth/rate-limiter.js';
import { ResultsCache } from './cache/results-cache.js';
import { DATASETS_CATALOG } from './config/catalog-config.js';
import type { FlightListen } from './config/flight-config.js';
import { loadManifest, type Manifest, parseManifest } from './config/manifest.js';
import { chooseMetricsListen } from './config/metrics-config.js';
import { defaultWorkerMemoryBytes, formatDuration } from './config/query-config.js';
import type { Backoff } from './datasets/backoff.js';
import { DatasetRuntime } from './datasets/dataset-runtime.js';
import type { DatasetStatus, Datasets } from './datasets/datasets.js';
import type { FlightListener } from './flight/flight-server.js';
import { observeRoutes } from './http/observe-routes.js';
import { createRequestGate } from './http/request-gate.js';
import { registerRoutes, type ServerPhase } from './http/routes.js';
import { listenUws } from './http/uws-app.js';
import { icebergCatalogSources } from './iceberg/catalog-source.js';
import { datasetCatalogSource } from './iceberg/dataset-source.js';
import type { RestCatalogSource } from './iceberg/rest-source.js';
import { createMcpEndpoints } from './mcp/mcp-endpoints.js';
import { ProxyTools } from './mcp/proxy/proxy-tools.js';
import { createMetrics, DatasetLoadState, type MetricsListen } from './metrics/metrics.js';
import { ModelRuntime } from './models/model-runtime.js';
import type { Models } from './models/models.js';
import { createQueryPool, type QueryPool } from './pool/pool.js';
import { type CatalogEdits, catalogEdits } from './runtime/catalog-edits.js';
import { CatalogVersions } from './runtime/catalog-versions.js';
import { type IcebergRuntime, startIcebergCatalogs } from './runtime/iceberg-runtime.js';
import { createQueryService, type QueryService } from './runtime/query-service.js';
import { versionedPool } from './runtime/versioned-pool.js';
import { prepareSample } from './sample/prepare-sample.js';
import { SearchService } from './search/search-service.js';

export interface ServerOptions {
  /** Path to a manifest, an already parsed manifest object, or undefined for the built-in sample. */
  readonly manifest?: string | object;
  /** Folder for relative paths of an object manifest and for the sample's `.floe/`; default cwd. */
  readonly baseDir?: string;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 8090; 0 picks a free port. */
  readonly port?: number;
  /** Query worker threads; default one per core. */
  readonly workers?: number;
  /** Prometheus listener; overrides the manifest's `runtime.metrics`. */
  readonly metrics?: MetricsListen;
  /** The listener when neither `metrics` nor the manifest sets one; default 'off' (the CLI: 127.0.0.1:9090). */
  readonly metricsDefault?: MetricsListen;
  /** Arrow Flight / Flight SQL listener (port 0 picks a free one); overrides the manifest's `runtime.flight`. */
  readonly flight?: FlightListen;
  /** The Flight listener when neither `flight` nor the manifest sets one; default 'off' (the CLI: 127.0.0.1:50051). */
  readonly flightDefault?: FlightListen;
  /** How long `close` lets in-flight requests finish before cutting them; default `runtime.shutdown_timeout`, 10 s. */
  readonly drainMs?: number;
  /** Environment for `${env:…}` substitution; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Called once the HTTP listener is up; datasets start loading when its promise (if any) settles. */
  readonly onListening?: (port: number) => void | Promise<void>;
  /** Progress lines (dataset loaded, warnings); default stderr. */
  readonly log?: (line: string) => void;
  /** Delays between a failed dataset load and its retries; default about 1 s doubling up to 1 min (tests shorten it). */
  readonly datasetRetry?: Backoff;
  /** Delays between the probes of an unreachable model; default about 1 s doubling up to 1 min (tests shorten it). */
  readonly modelRetry?: Backoff;
  /** Catalogs the Iceberg REST API serves after the datasets' `floe` catalog (each names namespace level 1). */
  readonly icebergSources?: readonly RestCatalogSource[];
  /** POST /v1/nsql's SSE keep-alive comment interval (default 15 s; tests shorten it). */
  readonly nsqlKeepAliveMs?: number;
  /** MCP session inactivity time-out; overrides `runtime.mcp.session_timeout` (default 1 h; tests shorten it). */
  readonly mcpSessionTimeoutMs?: number;
  /** The MCP SSE stream's keep-alive comment interval (default 15 s; tests shorten it). */
  readonly mcpKeepAliveMs?: number;
  /** Delays between the connects of a failed `tools:` MCP server; default about 1 s doubling up to 1 min. */
  readonly toolRetry?: Backoff;
  /** Debug lines (proxied MCP servers' stderr); default stderr when FLOE_LOG=debug, else dropped. */
  readonly debugLog?: (line: string) => void;
}

export interface RunningServer extends CatalogEdits {
  readonly host: string;
  readonly port: number;
  readonly manifest: Manifest;
  /** The /v1/sql results cache; null when disabled in the manifest. */
  readonly resultsCache: ResultsCache | null;
  /** Where the Prometheus listener is bound (its real port); null when metrics are off. */
  readonly metrics: { readonly host: string; readonly port: number } | null;
  /** Where the Flight listener is bound (its real port); null when Flight is off. */
  readonly flight: { readonly host: string; readonly port: number } | null;
  /** The query service every front end calls. */
  readonly service: QueryService;
  /** The running datasets: state, on-demand refresh, runtime refresh SQL (the dataset routes call it). */
  readonly datasets: Datasets;
  /** The manifest's language models (state, completions) for NSQL and GET /v1/models. */
  readonly models: Models;
  /** The manifest's Iceberg catalogs (tables found at start, DDL and commits from SQL). */
  readonly iceberg: IcebergRuntime;
  /** The manifest's proxied MCP servers (`tools:`): their tools, state and children. */
  readonly tools: ProxyTools;
  /** Full-text search over the datasets' `full_text_search` columns (the search tool, POST /v1/search). */
  readonly search: SearchService;
  /** The worker pool once started (for metrics: `queueLength`, `workerRestarts`). */
  pool(): QueryPool | null;
  /**
   * Tells the server that these datasets' data changed (a refresh or reload): cached results that read
   * any of them are dropped, and queries already running will not store theirs. The hook a dataset
   * refresh calls once it has swapped in the new data.
   */
  datasetsChanged(names: readonly string[]): void;
  /**
   * Stops accepting, lets in-flight requests finish (bounded by `drainMs`), cuts what is left, and stops the
   * workers, terminating them after `POOL_CLOSE_MS` whatever they run: it resolves within drainMs + ~2 s.
   */
  close(): Promise<void>;
}

/**
 * Validates the manifest (throws `ManifestError` before binding anything), starts listening (/health
 * answers at once; /v1/ready and /v1/sql answer 503 until loaded), makes every dataset's first load attempt,
 * starts the pool and resolves once /v1/ready says ready. A dataset that fails to load does not stop the start:
 * it is in `Error`, its queries fail with the reason, and it is retried with backoff (`DatasetRuntime`).
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const sample = options.manifest === undefined ? prepareSample(baseDir) : null;
  const manifest = await readManifest(options.manifest ?? sample?.manifest, baseDir, options.env);
  for (const w of manifest.warnings) log(`floe: warning: ${w}`);

  let phase: ServerPhase = 'loading';
  let pool: QueryPool | null = null;
  let versions: CatalogVersions | null = null;
  let iceberg: IcebergRuntime | null = null;
  // Responses not yet ended, counted (a Set of replies kept every request's state alive: see pool/id-slots.ts).
  let inflight = 0;
  const host = options.host ?? '127.0.0.1';
  const cacheConfig = manifest.resultsCache;
  const resultsCache = cacheConfig.enabled
    ? new ResultsCache({ maxBytes: cacheConfig.maxBytes, ttlMs: cacheConfig.ttlMs })
    : null;
  const limits = manifest.query;
  const service = createQueryService({
    pool: () => (phase === 'ready' ? pool : null),
    unavailable: () => ({
      kind: 'unavailable',
      message: phase === 'loading' ? 'not ready: datasets are loading' : 'Runtime is shutting down',
      retryAfterS: 1,
    }),
    resultsCache,
    maxConcurrent: limits.maxConcurrent,
    maxQueued: limits.maxQueued,
  });
  const debug =
    options.debugLog ??
    (process.env.FLOE_LOG === 'debug' ? (line: string) => process.stderr.write(`${line}\n`) : () => {});
  const tools = new ProxyTools(manifest.tools, { backoff: options.toolRetry, log, debug });
  const models = new ModelRuntime(manifest.models, { backoff: options.modelRetry, log });
  const metricsAt = chooseMetricsListen(options.metrics, manifest.metrics, options.metricsDefault);
  const metrics = createMetrics(metricsAt, {
    pool: () => pool,
    resultsCache,
    datasets: manifest.datasets.map((d) => d.name),
    models: () => models.figures(),
  });
  const search = new SearchService({ service, datasets: manifest.datasets, log });
  const datasets = new DatasetRuntime(manifest.datasets, {
    baseDir: manifest.baseDir,
    backoff: options.datasetRetry,
    log,
    stateChanged: (name, status) => {
      metrics?.datasetsState([name], LOAD_STATE[status]);
      search.datasetChanged(name, status);
    },
  });
  const mcp = createMcpEndpoints({
    service,
    datasets: () => datasets.list(),
    sessionTimeoutMs: options.mcpSessionTimeoutMs ?? manifest.mcp.sessionTimeoutMs,
    // With auth off the principal is the caller's address, which may change under a client: sessions stay unbound.
    bindToPrincipal: manifest.auth !== null,
    keepAliveMs: options.mcpKeepAliveMs,
    allowedHosts: manifest.mcp.allowedHosts,
    maxResultBytes: manifest.mcp.maxResultBytes,
    maxSessions: manifest.mcp.maxSessions,
    allowedOrigins: manifest.cors.allowedOrigins,
    proxied: tools,
    search,
  });
  // The datasets' catalog first; the manifest's Iceberg catalogs join once their warehouses are read.
  let icebergSources: readonly RestCatalogSource[] = [
    datasetCatalogSource({ name: DATASETS_CATALOG, datasets: () => datasets, service }),
    ...(options.icebergSources ?? []),
  ];
  const auth = createAuthenticator(manifest.auth);
  const flightAt = options.flight ?? manifest.flight ?? options.flightDefault ?? 'off';
  // The same catalogs as the Iceberg REST API: the metadata commands list what it lists.
  // One set of rate-limit buckets for HTTP and Flight: a key's requests count against one budget.
  const limiter = manifest.rateLimit && new RateLimiter(manifest.rateLimit);
  const flightOptions = { service, auth, limiter, sources: () => icebergSources, log };
  const server = await listenUws(
    (app) =>
      registerRoutes(metrics === null ? app : observeRoutes(app, metrics.observeHttp), {
        phase: () => phase,
        service,
        cacheEnabled: resultsCache !== null,
        // From the start: GET /v1/datasets lists them (Initializing) while they load.
        datasets: () => datasets,
        models: () => models,
        search,
        nsqlKeepAliveMs: options.nsqlKeepAliveMs,
        proxied: tools,
        icebergSources: () => icebergSources,
        maxBodyBytes: manifest.maxBodyBytes,
        mcp,
        gate: createRequestGate({
          auth,
          limiter,
          cors: manifest.cors,
        }),
        track: (reply) => {
          inflight++;
          reply.onDone(() => {
            inflight--;
          });
        },
      }),
    host,
    options.port ?? 8090,
  );
  let flight: FlightListener | null = null;
  try {
    await metrics?.listen();
    if (flightAt !== 'off') {
      // Loaded only when served: grpc-js, proto-loader and the protos add ~4 MB to the main thread's heap.
      const { listenFlight } = await import('./flight/flight-server.js');
      flight = await listenFlight(flightOptions, flightAt.host, flightAt.port);
    }
    await options.onListening?.(server.port);
    await sample?.generate();
    // Connected in the background: readiness never waits for an external MCP server.
    tools.start();
    // Probed while the datasets load: an unreachable model is `error`, never a failed start.
    const probed = models.start();
    const loaded = await datasets.start();
    await probed;
    iceberg = await startIcebergCatalogs(manifest, log);
    icebergSources = [...icebergSources, ...icebergCatalogSources(iceberg.catalogs)];
    versions = new CatalogVersions({ tables: [...loaded.tables, ...iceberg.entries] });
    const workerPool = createQueryPool({
      snapshot: versions,
      workers: options.workers,
      queryCounters: metrics?.queryCounters,
      timeoutMs: limits.timeoutMs,
      timeoutText: formatDuration(limits.timeoutMs),
      killGraceMs: limits.killGraceMs,
      memoryLimitBytes: limits.memoryLimitBytes ?? defaultWorkerMemoryBytes(options.workers),
    });
    pool = versionedPool(workerPool, versions);
    await pool.ready;
  } catch (e) {
    void search.close();
    models.close();
    await tools.close();
    await datasets.close();
    await mcp.closeAll();
    server.closeAll();
    await flight?.close(0);
    await metrics?.close();
    await pool?.close();
    iceberg?.close();
    versions?.close();
    throw e;
  }

  let closing: Promise<void> | null = null;
  const datasetsChanged = (names: readonly string[]) => resultsCache?.invalidate(names);
  const edits = catalogEdits(versions, datasetsChanged, (name) => datasets.reload(name));
  // Refreshes swap their tables in through the edits: one publication each, cached results of the table dropped.
  datasets.serve((name, entry) => edits.replaceTable(name, entry));
  // Workers' DDL and commits: answered from now on (a write before this point waits on the channel).
  const lake = iceberg as IcebergRuntime;
  lake.serve(versions.channel, edits, datasets);
  phase = 'ready';
  // Indexes are built through the query service: from now on, first those of the datasets already loaded.
  search.start((name) => datasets.list().some((d) => d.name === name && d.status === 'Ready'));
  return {
    host,
    port: server.port,
    manifest,
    resultsCache,
    metrics: metricsAt === 'off' ? null : { host: metricsAt.host, port: metrics?.port ?? 0 },
    flight: flightAt === 'off' || flight === null ? null : { host: flightAt.host, port: flight.port },
    datasetsChanged,
    // Listed, not spread: a spread would copy the getter's value once.
    get catalogVersion() {
      return edits.catalogVersion;
    },
    publish: edits.publish,
    addTable: edits.addTable,
    replaceTable: edits.replaceTable,
    dropTable: edits.dropTable,
    reloadDataset: edits.reloadDataset,
    service,
    datasets,
    iceberg: lake,
    models,
    tools,
    search,
    pool: () => pool,
    close() {
      closing ??= (async () => {
        phase = 'stopping';
        // Timers stop and loads are cancelled now; the load in progress ends before the catalog closes.
        const datasetsClosed = datasets.close();
        models.close();
        server.stopListening();
        // Open MCP streams never end by themselves: closing their sessions ends them before the drain waits.
        await mcp.closeAll();
        // Flight calls in flight get the same drain bound as HTTP's, then are cut.
        const flightClosed = flight?.close(options.drainMs ?? manifest.shutdownTimeoutMs);
        await drain(() => inflight, options.drainMs ?? manifest.shutdownTimeoutMs);
        // After the drain: a proxied call in flight gets its answer; children end while the pool stops.
        const toolsClosed = tools.close();
        // The pool first: a query still running when its bound passes is answered 503 'Runtime is shutting down'
        // on its open connection, which closeAll then cuts (the other order cut it without an answer).
        await pool?.close(POOL_CLOSE_MS);
        await new Promise((r) => setImmediate(r));
        server.closeAll();
        await flightClosed;
        await metrics?.close();
        await datasetsClosed;
        await toolsClosed;
        await search.close();
        lake.close();
        versions?.close();
      })();
      return closing;
    },
  };
}

/** `dataset_load_state` of each status. */
const LOAD_STATE: Readonly<Record<DatasetStatus, DatasetLoadState>> = {
  Initializing: DatasetLoadState.initializing,
  Ready: DatasetLoadState.ready,
  Disabled: DatasetLoadState.disabled,
  Error: DatasetLoadState.error,
  Refreshing: DatasetLoadState.refreshing,
  ShuttingDown: DatasetLoadState.shuttingDown,
};

/** The Iceberg REST catalog holding the datasets (`floe.public.<dataset>`). */

/** After the drain, how long the workers get to finish before they are terminated (a regex may never stop). */
const POOL_CLOSE_MS = 2000;

async function readManifest(source: string | object | undefined, baseDir: string, env?: NodeJS.ProcessEnv) {
  if (typeof source === 'string') return loadManifest(resolve(baseDir, source), env);
  return parseManifest(source, baseDir, env);
}

// Waits until no response is in flight, or `ms` passed (then the caller cuts what is left).
async function drain(inflight: () => number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (inflight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}
