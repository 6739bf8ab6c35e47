// `tools:` in the manifest: external MCP servers whose tools floe proxies (`from: mcp:<url>` or `mcp:<executable>`).
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { parseDuration } from './results-cache-config.js';

/** How floe reaches one external MCP server. */
export type ToolSource =
  /** A child process speaking MCP over stdin/stdout. */
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly cwd: string }
  /** `sse`: the URL's path ends in `/sse` (legacy SSE); `auto`: Streamable HTTP, falling back to SSE. */
  | { readonly kind: 'http'; readonly url: string; readonly transport: 'sse' | 'auto' };

/** One `tools:` entry, validated. `headers` and `env` may hold secrets: never log, list or echo them. */
export interface ToolConfig {
  /** The entry name: its tools are exposed as `<name>/<tool>`. */
  readonly name: string;
  /** `from` without secrets (the executable, or the URL without credentials and query), for logs and listings. */
  readonly from: string;
  readonly description?: string;
  readonly source: ToolSource;
  /** HTTP headers sent on every request: `mcp_headers`, then `Authorization: Bearer <auth_token>`. */
  readonly headers: Readonly<Record<string, string>>;
  /** stdio: variables added to the SDK's default environment (HOME, PATH, ...); floe's own env is not inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** One call's time-out (`params.timeout`, default 30 s). */
  readonly timeoutMs: number;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
/** Contract §8: at most 100 stdio external server processes. */
export const MAX_STDIO_TOOL_SERVERS = 100;
/** An entry name is a tool-name prefix: §8's charset without `/`, which separates it from the tool's own name. */
const ENTRY_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const KNOWN_PARAMS = new Set(['mcp_args', 'auth_token', 'timeout', 'mcp_headers']);

export const toolSchema = z.strictObject({
  name: z.string().min(1),
  from: z.string().min(1),
  description: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  dependsOn: z.unknown().optional(),
});

export type ToolDocument = z.infer<typeof toolSchema>;

export type ToolOutcome = { config: ToolConfig; warnings: string[] } | { ignored: string } | string[];

/**
 * The entry `tools[index]`, a warning for Spice's `builtin:` entries (floe's built-ins are always listed), or its
 * problems as `tools[i].<key>: <problem>` lines. Problems never quote `from`, params or env (they may hold secrets).
 */
export function toolConfig(doc: ToolDocument, index: number, baseDir: string): ToolOutcome {
  const at = (key: string) => `tools[${index}].${key}`;
  if (/^builtin:/i.test(doc.from))
    return { ignored: `${at('from')}: builtin tools are not supported yet; ignored (floe's built-ins are always on)` };
  const problems: string[] = [];
  if (!ENTRY_NAME.test(doc.name))
    problems.push(`${at('name')}: expected 1 to 128 letters, digits, '_', '-' or '.' (it prefixes '<name>/<tool>')`);
  const source = toolSource(doc.from, doc.params, baseDir, at, problems);
  const timeoutMs = toolTimeout(doc.params.timeout, at, problems);
  const headers = toolHeaders(doc.params, at, problems);
  const warnings = Object.keys(doc.params)
    .filter((k) => !KNOWN_PARAMS.has(k))
    .map((k) => `${at(`params.${k}`)}: not supported yet; ignored`);
  if (source?.kind === 'http' && doc.env !== undefined)
    warnings.push(`${at('env')}: used by stdio servers only; ignored`);
  if (source?.kind === 'stdio' && Object.keys(headers).length > 0)
    warnings.push(`${at('params')}: auth_token and mcp_headers are used by HTTP servers only; ignored`);
  if (problems.length > 0 || source === null) return problems;
  const env = Object.fromEntries(Object.entries(doc.env ?? {}).map(([k, v]) => [k, String(v)]));
  const config: ToolConfig = {
    name: doc.name,
    from: displayFrom(source),
    ...(doc.description === undefined ? {} : { description: doc.description }),
    source,
    headers: source.kind === 'http' ? headers : {},
    env: source.kind === 'stdio' ? env : {},
    timeoutMs,
  };
  return { config, warnings };
}

type At = (key: string) => string;

function toolSource(
  from: string,
  params: Readonly<Record<string, unknown>>,
  baseDir: string,
  at: At,
  problems: string[],
): ToolSource | null {
  const m = /^mcp:(.*)$/is.exec(from);
  if (m === null) {
    problems.push(
      `${at('from')}: expected mcp:<http(s) URL> or mcp:<executable> (other sources are not supported yet)`,
    );
    return null;
  }
  const target = (m[1] as string).trim();
  if (/^https?:/i.test(target)) {
    const url = URL.canParse(target) ? new URL(target) : null;
    if (url === null || url.hostname === '') {
      problems.push(`${at('from')}: not a valid http(s) URL`);
      return null;
    }
    return { kind: 'http', url: url.href, transport: /\/sse\/?$/.test(url.pathname) ? 'sse' : 'auto' };
  }
  if (target === '' || /\s/.test(target)) {
    problems.push(`${at('from')}: expected one executable after mcp: (its arguments go in params.mcp_args)`);
    return null;
  }
  const args = toolArgs(params.mcp_args, at, problems);
  // A relative path is the manifest's, as for `file:` datasets; a bare name is looked up in PATH.
  const command = target.includes('/') && !isAbsolute(target) ? resolve(baseDir, target) : target;
  return { kind: 'stdio', command, args, cwd: baseDir };
}

/** `mcp_args`: a string split on whitespace (Spice), or a list (for an argument holding spaces). */
function toolArgs(value: unknown, at: At, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/\s+/).filter((a) => a !== '');
  if (Array.isArray(value) && value.every((a) => typeof a === 'string' || typeof a === 'number'))
    return value.map(String);
  problems.push(`${at('params.mcp_args')}: expected a string (split on whitespace) or a list of strings`);
  return [];
}

function toolTimeout(value: unknown, at: At, problems: string[]): number {
  if (value === undefined) return DEFAULT_TOOL_TIMEOUT_MS;
  const ms = typeof value === 'string' || typeof value === 'number' ? parseDuration(value) : null;
  if (ms !== null && ms > 0) return ms;
  problems.push(`${at('params.timeout')}: invalid duration (e.g. 30s, 500ms, 2m)`);
  return DEFAULT_TOOL_TIMEOUT_MS;
}

/** `mcp_headers` ("Name: value; Name2: value" or a map), then `auth_token` as `Authorization: Bearer`. */
function toolHeaders(params: Readonly<Record<string, unknown>>, at: At, problems: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = params.mcp_headers;
  let pairs: [string, unknown][] = [];
  if (typeof raw === 'string')
    pairs = raw
      .split(';')
      .filter((p) => p.trim() !== '')
      .map((p) => {
        const colon = p.indexOf(':');
        return colon < 0 ? [p.trim(), undefined] : [p.slice(0, colon).trim(), p.slice(colon + 1).trim()];
      });
  else if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) pairs = Object.entries(raw);
  else if (raw !== undefined)
    problems.push(`${at('params.mcp_headers')}: expected "Name: value; Name2: value" or a map`);
  for (const [name, value] of pairs) {
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n]/.test(value))
      problems.push(
        `${at('params.mcp_headers')}: header '${HEADER_NAME.test(name) ? name : '?'}' needs a one-line value`,
      );
    else headers[name] = value;
  }
  const token = params.auth_token;
  if (typeof token === 'string' && token !== '') headers.Authorization = `Bearer ${token}`;
  else if (token !== undefined) problems.push(`${at('params.auth_token')}: expected a non-empty string`);
  return headers;
}

/** The executable, or the URL without user, password, query and fragment (where tokens hide). */
function displayFrom(source: ToolSource): string {
  if (source.kind === 'stdio') return `mcp:${source.command}`;
  const url = new URL(source.url);
  return `mcp:${url.protocol}//${url.host}${url.pathname}`;
}

/** Every entry, or a ManifestError-ready list of problems (a bad entry, a name twice, more than 100 stdio servers). */
export function toolConfigs(
  docs: readonly ToolDocument[],
  baseDir: string,
): { configs: ToolConfig[]; warnings: string[] } | string[] {
  const problems: string[] = [];
  const configs: ToolConfig[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  docs.forEach((doc, i) => {
    const first = seen.get(doc.name.toLowerCase());
    if (first !== undefined)
      problems.push(`tools[${i}].name: tool '${doc.name}' is already declared at tools[${first}]`);
    else seen.set(doc.name.toLowerCase(), i);
    const outcome = toolConfig(doc, i, baseDir);
    if (Array.isArray(outcome)) problems.push(...outcome);
    else if ('ignored' in outcome) warnings.push(outcome.ignored);
    else {
      configs.push(outcome.config);
      warnings.push(...outcome.warnings);
    }
  });
  const stdio = configs.filter((c) => c.source.kind === 'stdio').length;
  if (stdio > MAX_STDIO_TOOL_SERVERS)
    problems.push(`tools: ${stdio} stdio MCP servers; at most ${MAX_STDIO_TOOL_SERVERS} may run (contract §8)`);
  return problems.length > 0 ? problems : { configs, warnings };
}
