// `drive`: a fixed-duration load of one POST request on keep-alive connections, with autocannon, or wrk when asked
// for and installed. Every run is bounded in time and targets loopback only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

export type LoadTool = 'autocannon' | 'wrk';

export interface LoadResult {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts. */
  readonly errors: number;
  /** Responses other than 2xx: a failing query must not pass for a fast one. */
  readonly non2xx: number;
}

export interface LoadSpec {
  /** A loopback URL. */
  readonly url: string;
  readonly body: string;
  readonly connections: number;
  readonly durationS: number;
}

/** True when a `wrk` binary is on PATH. */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    // wrk --version exits 1 after printing its version.
    return (e as { status?: number }).status === 1;
  }
}

export async function drive(tool: LoadTool, spec: LoadSpec): Promise<LoadResult> {
  const host = new URL(spec.url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) throw new Error(`load goes to loopback only, not ${host}`);
  return tool === 'wrk' ? driveWrk(spec) : driveAutocannon(spec);
}

/**
 * autocannon's own histogram keeps whole milliseconds, too coarse for sub-millisecond answers: latencies
 * of 2xx responses are collected from its 'response' events instead, and requests/s is 2xx answers ÷ duration.
 */
async function driveAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = {
      url: spec.url,
      method: 'POST' as const,
      body: spec.body,
      headers: { 'content-type': 'text/plain' },
      connections: spec.connections,
      duration: spec.durationS,
      timeout: 30,
    };
    const instance = autocannon(options, (e, result) => (e ? reject(e) : resolve(result)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  latencies.sort((a, b) => a - b);
  const at = (p: number) => (latencies.length === 0 ? Number.NaN : latencies[Math.ceil(p * latencies.length) - 1]!);
  return {
    requestsPerSec: latencies.length / (r.duration || spec.durationS),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

/** wrk with one thread (it shares the cores with the server) and a Lua script that sets the POST body. */
async function driveWrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'floe-wrk-'));
  const script = join(dir, 'post.lua');
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(spec.body)}\nwrk.headers["Content-Type"] = "text/plain"\n`,
  );
  try {
    const args = [`-c${spec.connections}`, `-d${spec.durationS}s`, '-t1', '--timeout', '30s', '--latency'];
    args.push('-s', script, spec.url);
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d));
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}`))));
    });
    return parseWrk(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads requests/s, the 50% and 99% latencies and the error lines of wrk's `--latency` report. */
export function parseWrk(out: string): LoadResult {
  const msOf = (v: string, unit: string) => Number(v) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 }[unit] ?? Number.NaN);
  const latency = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    return m ? msOf(m[1]!, m[2]!) : Number.NaN;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    errors: socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}
