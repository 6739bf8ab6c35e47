// `createHostGuard`: the DNS-rebinding check of every MCP request: its Host and Origin headers against allow-lists.
import { hostOnly } from '../config/mcp-config.js';

/** Returns why the request is refused (the 403's message), or null when it may go on. */
export type HostGuard = (host: string, origin: string) => string | null;

/** Names a local server answers to: allowed without configuration. */
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1']);
/** An echoed header is cut to this many characters. */
const ECHO_CHARS = 100;

/**
 * A web page on a rebound DNS name reaches a local floe with that name in `Host`, and a page of another site sends
 * its `Origin`: both are refused unless allowed. `Host` (port stripped, IPv6 in brackets) must be a local name or
 * in `allowedHosts` (`runtime.mcp.allowed_hosts`; `*` turns the check off); a missing Host is refused too. `Origin`,
 * when present (browsers send it; other clients mostly do not), must be an http(s) origin on a local name or in
 * `allowedOrigins` (`runtime.cors.allowed_origins`, normalised; its `*` stands for the local origins only).
 */
export function createHostGuard(allowedHosts: readonly string[], allowedOrigins: readonly string[]): HostGuard {
  const anyHost = allowedHosts.includes('*');
  const hosts = new Set(allowedHosts);
  const origins = new Set(allowedOrigins.filter((o) => o !== '*'));
  return (host, origin) => {
    const name = hostOnly(host);
    if (!anyHost && !LOCAL_HOSTS.has(name) && !hosts.has(name)) {
      return `Forbidden: Host '${echo(host)}' is not allowed; list the host names clients use in runtime.mcp.allowed_hosts`;
    }
    if (origin === '' || isLocalOrigin(origin) || origins.has(origin.toLowerCase())) return null;
    return `Forbidden: Origin '${echo(origin)}' is not allowed; list it in runtime.cors.allowed_origins`;
  };
}

function isLocalOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(hostOnly(url.hostname));
}

function echo(text: string): string {
  return text.length <= ECHO_CHARS ? text : `${text.slice(0, ECHO_CHARS)}…`;
}
