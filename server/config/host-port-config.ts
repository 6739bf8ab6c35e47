// `hostPortSchema` and `hostPort`: a manifest listener address (`HOST:PORT`, parsed as the CLI parses it).
import { z } from 'zod';
import { parseHostPort, UsageError } from '../cli-args.js';

/** A `HOST:PORT` string, refused with the manifest's key path when it does not parse. */
export const hostPortSchema = z.string().check((ctx) => {
  if (hostPort(ctx.value) === null)
    ctx.issues.push({ code: 'custom', message: `expects HOST:PORT, got '${ctx.value}'`, input: ctx.value });
});

/** `text` as host and port, or null when it is not `HOST:PORT`. */
export function hostPort(text: string): { host: string; port: number } | null {
  try {
    return parseHostPort(text);
  } catch (e) {
    if (e instanceof UsageError) return null;
    throw e;
  }
}
