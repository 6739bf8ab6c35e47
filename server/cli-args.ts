// `parseCliArgs`: the `floe` command line: `floe run [--manifest PATH] [--http HOST:PORT] [--flight HOST:PORT] [--workers N]`.
import { parseArgs } from 'node:util';
import type { FlightListen } from './config/flight-config.js';
import type { MetricsListen } from './metrics/metrics.js';

export const USAGE = `Usage: floe run [options]

Serves SQL over the manifest's datasets on HTTP (POST /v1/sql).

Options:
  --manifest PATH    manifest to load (default: ./floe.yaml, else ./spicepod.yaml, else the built-in
                     TPC-H sample written to ./.floe/sample/)
  --http HOST:PORT   HTTP listen address (default: 127.0.0.1:8090; port 0 picks a free port)
  --workers N        query worker threads (default: one per core)
  --metrics HOST:PORT
                     Prometheus metrics on GET /metrics (default: the manifest's runtime.metrics, else
                     127.0.0.1:9090; port 0 picks a free port); --metrics off disables the listener
  --flight HOST:PORT Arrow Flight and Flight SQL (gRPC) listen address (default: the manifest's
                     runtime.flight, else 127.0.0.1:50051; port 0 picks a free port); --flight off disables it
  -h, --help         show this help
`;

export interface RunCommand {
  readonly command: 'run';
  readonly manifest: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly workers: number | undefined;
  /** --metrics; undefined when not given (the manifest's `runtime.metrics`, else the default, decides). */
  readonly metrics?: MetricsListen;
  /** --flight; undefined when not given (the manifest's `runtime.flight`, else the default, decides). */
  readonly flight?: FlightListen;
}

export type CliCommand = RunCommand | { readonly command: 'help' };

/** The command line is wrong; the CLI prints the message and the usage and exits with 2. */
export class UsageError extends Error {}

/** Parses argv (without node and the script). Throws `UsageError` for unknown flags or bad values. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: 'help' };
  if (positionals.length === 0) throw new UsageError('missing command');
  if (positionals[0] !== 'run' || positionals.length > 1)
    throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  const { host, port } = parseHostPort(values.http ?? '127.0.0.1:8090');
  const run = { command: 'run', manifest: values.manifest, host, port, workers: parseWorkers(values.workers) } as const;
  const flight = listenFlag(values.flight, '--flight');
  const metrics = listenFlag(values.metrics, '--metrics');
  return { ...run, ...(metrics === undefined ? {} : { metrics }), ...(flight === undefined ? {} : { flight }) };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      manifest: { type: 'string' },
      http: { type: 'string' },
      workers: { type: 'string' },
      metrics: { type: 'string' },
      flight: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** A listener flag: HOST:PORT, or 'off'; undefined when not given. */
function listenFlag(text: string | undefined, flag: string): { host: string; port: number } | 'off' | undefined {
  if (text === undefined) return undefined;
  return text === 'off' ? 'off' : parseHostPort(text, flag);
}

/** `HOST:PORT`, `[::1]:PORT` or `:PORT` (host defaults to 127.0.0.1). */
export function parseHostPort(text: string, flag = '--http'): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (match === null || port > 65_535) throw new UsageError(`${flag} expects HOST:PORT, got '${text}'`);
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

function parseWorkers(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new UsageError(`--workers expects a whole number from 1 to 256, got '${text}'`);
  return n;
}
