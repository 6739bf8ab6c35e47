#!/usr/bin/env -S node --no-concurrent-marking --max-semi-space-size=4
// The `floe` executable: parses the command line, starts the server, handles signals and exit codes. Its V8 flags
// (the shebang's) are SERVER_NODE_FLAGS (node-flags.ts).
import { existsSync } from 'node:fs';
import { parseCliArgs, type RunCommand, USAGE, UsageError } from './cli-args.js';
import { DEFAULT_FLIGHT_ENDPOINT } from './config/flight-config.js';
import { ManifestError } from './config/manifest.js';
import { DEFAULT_METRICS_ENDPOINT } from './config/metrics-config.js';
import { startServer } from './main.js';

/** Exit codes: 0 clean stop, 1 runtime failure, 2 bad command line or bad manifest/datasets. */
const EXIT_USAGE = 2;

async function main(argv: readonly string[]): Promise<void> {
  let command: ReturnType<typeof parseCliArgs>;
  try {
    command = parseCliArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`floe: ${e.message}\n\n${USAGE}`);
    process.exit(EXIT_USAGE);
  }
  if (command.command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  await run(command);
}

async function run(command: RunCommand): Promise<void> {
  const manifest = command.manifest ?? ['floe.yaml', 'spicepod.yaml'].find((f) => existsSync(f));
  const server = await startServer({
    ...command,
    manifest,
    metricsDefault: DEFAULT_METRICS_ENDPOINT,
    flightDefault: DEFAULT_FLIGHT_ENDPOINT,
  });
  const url = `http://${command.host.includes(':') ? `[${command.host}]` : command.host}:${server.port}`;
  if (manifest === undefined) {
    process.stdout.write(
      `floe: no manifest given: serving the built-in TPC-H sample (region, nation, customer, orders, lineitem, ...)\n` +
        `floe: try: curl -d 'SELECT o_orderpriority, count(*) AS orders FROM orders GROUP BY o_orderpriority ORDER BY o_orderpriority' ${url}/v1/sql\n`,
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stderr.write(`floe: ${signal}: finishing in-flight requests\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const { metrics: m } = server;
  if (m !== null)
    process.stdout.write(`floe metrics: http://${m.host.includes(':') ? `[${m.host}]` : m.host}:${m.port}/metrics\n`);
  const { flight: f } = server;
  if (f !== null)
    process.stdout.write(`floe flight: grpc://${f.host.includes(':') ? `[${f.host}]` : f.host}:${f.port}\n`);
  // Only once the handlers are in place: a supervisor may signal as soon as it reads this line.
  process.stdout.write(`floe ready: ${url}\n`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const configError = e instanceof ManifestError;
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`floe: ${configError ? message : `cannot start: ${message}`}\n`);
  process.exit(configError ? EXIT_USAGE : 1);
});
