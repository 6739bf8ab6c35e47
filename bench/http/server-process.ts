// `startServerProcess`: runs a server in its own process (so it never shares an event loop with the load
// generator) and resolves once it prints the line that carries its port.
import { spawn } from 'node:child_process';

export interface ServerProcess {
  readonly port: number;
  /** What it printed on stdout up to its ready line (other listeners' addresses). */
  readonly output: string;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s. */
  stop(): Promise<void>;
}

export function startServerProcess(
  args: readonly string[],
  readyLine: RegExp,
  timeoutMs = 10 * 60_000,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4000)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `${args.find((a) => !a.startsWith('-'))} did not become ready within ${timeoutMs / 1000} s\n${stderr}`,
        ),
      );
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const port = readyLine.exec(out)?.[1];
      if (port === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ port: Number(port), output: out, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code}) before it was ready\n${stderr}`));
    });
  });
}
