// Starts a real floe server in-process (real uWS listener, real Piscina workers) for HTTP tests.
import { type RunningServer, type ServerOptions, startServer } from '../../server/main.js';

export interface TestServer {
  readonly server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** `<base>/v1/sql` */
  readonly sql: string;
  close(): Promise<void>;
}

/**
 * Serves `datasets` (name -> source, `params` and `acceleration` optional) on an ephemeral port with `workers`
 * threads (default 2); `runtime` is the manifest's runtime section (e.g. `caching`), `catalogs` its Iceberg catalogs. Warnings and progress go nowhere unless `log` is given.
 */
export async function startTestServer(
  datasets: readonly {
    name: string;
    from: string;
    params?: Readonly<Record<string, unknown>>;
    acceleration?: Readonly<Record<string, unknown>>;
    columns?: readonly Readonly<Record<string, unknown>>[];
  }[],
  options: Partial<ServerOptions> & {
    maxBodyBytes?: number;
    runtime?: Record<string, unknown>;
    /** The manifest's `catalogs` (Iceberg warehouses). */
    catalogs?: readonly Record<string, unknown>[];
    /** The manifest's `models` (`{name, from, params, datasets}`). */
    models?: readonly Record<string, unknown>[];
    /** The manifest's `tools` (proxied MCP servers: `{name, from, params, env}`). */
    tools?: readonly Record<string, unknown>[];
  } = {},
): Promise<TestServer> {
  const { maxBodyBytes, runtime = {}, catalogs = [], models = [], tools = [], ...rest } = options;
  const manifest = {
    version: 'v1',
    kind: 'Spicepod',
    name: 'test',
    datasets,
    catalogs,
    models,
    tools,
    runtime: maxBodyBytes === undefined ? runtime : { ...runtime, http: { max_body_bytes: maxBodyBytes } },
  };
  const server = await startServer({ manifest, host: '127.0.0.1', port: 0, workers: 2, log: () => {}, ...rest });
  const base = `http://127.0.0.1:${server.port}`;
  return { server, base, sql: `${base}/v1/sql`, close: () => server.close() };
}
