// `loadManifest`: reads floe.yaml / spicepod.yaml, substitutes secrets, validates, and lists the datasets.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { S3_PARAMS } from '../../catalog/s3-params.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/read-body.js';
import type { MetricsListen } from '../metrics/metrics.js';
import { type DatasetConfig, refreshConfig, refreshWarnings } from './acceleration-config.js';
import { type AuthConfig, authConfig } from './auth-config.js';
import { type CatalogConfig, catalogConfig, unknownCatalogParams } from './catalog-config.js';
import { type CorsConfig, corsConfig } from './cors-config.js';
import { checkFileFormat, FILE_FORMAT_PARAMS } from './file-format-config.js';
import { type FlightListen, flightConfig } from './flight-config.js';
import {
  ACCELERATION_LATER_KEYS,
  DATASET_LATER_KEYS,
  LATER_SECTIONS,
  type ManifestDocument,
  manifestSchema,
  RUNTIME_LATER_KEYS,
} from './manifest-schema.js';
import { type McpConfig, mcpConfig } from './mcp-config.js';
import { metricsConfig } from './metrics-config.js';
import { type ModelConfig, modelConfig } from './model-config.js';
import { type QueryConfig, queryConfig } from './query-config.js';
import { type RateLimitConfig, rateLimitConfig } from './rate-limit-config.js';
import { parseDuration, type ResultsCacheConfig, resultsCacheConfig } from './results-cache-config.js';
import { s3ParamProblems } from './s3-config.js';
import { searchConfigOf } from './search-config.js';
import { SecretReferenceError, substituteSecrets } from './substitute-secrets.js';
import { type ToolConfig, toolConfigs } from './tool-config.js';

/** A validated manifest, reduced to what floe uses. */
export interface Manifest {
  readonly name: string;
  /** Folder that relative `file:` paths are resolved against (the manifest's own folder). */
  readonly baseDir: string;
  /** The datasets in manifest order, each with its refresh policy. */
  readonly datasets: readonly DatasetConfig[];
  /** `catalogs:`: Iceberg warehouses served as catalogs, in manifest order. */
  readonly catalogs: readonly CatalogConfig[];
  /** `models:`: OpenAI-compatible chat models for NSQL, in manifest order. */
  readonly models: readonly ModelConfig[];
  /** `tools:`: external MCP servers whose tools floe proxies, in manifest order. */
  readonly tools: readonly ToolConfig[];
  readonly maxBodyBytes: number;
  /** `runtime.caching.sql_results` (or the deprecated `runtime.results_cache`) with Spice's defaults. */
  readonly resultsCache: ResultsCacheConfig;
  /** `runtime.auth` API keys; null when auth is off. */
  readonly auth: AuthConfig | null;
  /** `runtime.http.rate_limit`; null when off. */
  readonly rateLimit: RateLimitConfig | null;
  /** `runtime.cors`. */
  readonly cors: CorsConfig;
  /** `runtime.metrics`: the Prometheus listener, or undefined when the manifest does not say. */
  readonly metrics: MetricsListen | undefined;
  /** `runtime.flight`: the Flight listener, or undefined when the manifest does not say. */
  readonly flight: FlightListen | undefined;
  /** `runtime.query`: time-out, memory limit, admission limits. */
  readonly query: QueryConfig;
  /** `runtime.shutdown_timeout`: how long a stop lets in-flight requests finish (ms). */
  readonly shutdownTimeoutMs: number;
  /** `runtime.mcp`: MCP session time-out and the Host allow-list. */
  readonly mcp: McpConfig;
  /** Sections and keys that were accepted but are not implemented yet, as `path: what`. */
  readonly warnings: readonly string[];
}

/** The manifest is invalid; every line of the message is `<key path>: <problem>`. */
export class ManifestError extends Error {}

/** Reads and validates the manifest at `path`; see `parseManifest`. */
export async function loadManifest(path: string, env: NodeJS.ProcessEnv = process.env): Promise<Manifest> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new ManifestError(`manifest: cannot read ${path}: ${e.code ?? e.message}`);
  });
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new ManifestError(`manifest: invalid YAML: ${doc.errors[0]?.message}`);
  return parseManifest(doc.toJS(), dirname(resolve(path)), env);
}

/**
 * Validates an already parsed manifest (e.g. an object given to `startServer`). `${env:X}` and
 * `${secrets:X}` are replaced first, so substituted values are validated too. Throws `ManifestError`
 * naming the key path of every problem, e.g. `datasets[1].from: unknown connector 'ftp'`.
 */
export function parseManifest(raw: unknown, baseDir: string, env: NodeJS.ProcessEnv = process.env): Manifest {
  let substituted: unknown;
  try {
    substituted = substituteSecrets(raw, env, envStoreNames(raw));
  } catch (e) {
    if (e instanceof SecretReferenceError) throw new ManifestError(`${e.path}: ${e.message}`);
    throw e;
  }
  const parsed = manifestSchema.safeParse(substituted);
  if (!parsed.success) throw new ManifestError(parsed.error.issues.map(describeIssue).join('\n'));
  const m = parsed.data;
  duplicateNames(m.datasets.map((d) => d.name));
  const formatWarnings = m.datasets.flatMap((d, i) => fileFormat(d, i));
  const searches = m.datasets.map((d, i) => searchOf(d, i));
  const s3Problems = m.datasets.flatMap((d, i) => (isS3(d.from) ? s3ParamProblems(d.params, i) : []));
  const catalogS3 = m.catalogs.flatMap((c, i) =>
    /^iceberg:s3:/i.test(c.from) ? s3ParamProblems(c.params, i, 'catalogs') : [],
  );
  if (s3Problems.length + catalogS3.length > 0) throw new ManifestError([...s3Problems, ...catalogS3].join('\n'));
  const catalogs = catalogsOf(m.catalogs, baseDir);
  const models = modelsOf(
    m.models,
    m.datasets.map((d) => d.name),
  );
  const tools = toolConfigs(m.tools, baseDir);
  if (Array.isArray(tools)) throw new ManifestError(tools.join('\n'));
  return {
    name: m.name,
    baseDir,
    datasets: m.datasets.map((d, i) => ({
      name: d.name,
      from: d.from,
      accelerated: d.acceleration?.enabled ?? false,
      params: paramStrings(d.params),
      ...(d.columns ? { columns: d.columns.map((c) => ({ name: c.name, type: c.type })) } : {}),
      ...(d.time_column === undefined ? {} : { timeColumn: d.time_column }),
      ...(d.acceleration?.enabled ? { refresh: refreshConfig(d.acceleration) } : {}),
      ...(searches[i] === undefined ? {} : { search: searches[i] }),
    })),
    catalogs,
    models: models.configs,
    tools: tools.configs,
    maxBodyBytes: m.runtime.http?.max_body_bytes ?? DEFAULT_MAX_BODY_BYTES,
    resultsCache: resultsCacheConfig(m.runtime.caching, m.runtime.results_cache),
    auth: authConfig(m.runtime.auth),
    rateLimit: rateLimitConfig(m.runtime.http?.rate_limit),
    cors: corsConfig(m.runtime.cors),
    metrics: metricsConfig(m.runtime.metrics),
    flight: flightConfig(m.runtime.flight),
    query: queryConfig(m.runtime.query),
    shutdownTimeoutMs: m.runtime.shutdown_timeout === undefined ? 10_000 : parseDuration(m.runtime.shutdown_timeout)!,
    mcp: mcpConfig(m.runtime.mcp),
    warnings: [...collectWarnings(m), ...formatWarnings, ...models.warnings, ...tools.warnings],
  };
}

/** `searchConfigOf` with its problem as a ManifestError. */
function searchOf(d: ManifestDocument['datasets'][number], index: number) {
  try {
    return searchConfigOf(d, index);
  } catch (e) {
    throw new ManifestError((e as Error).message);
  }
}

/** Params as strings: YAML gives `csv_has_header: true` a boolean, `client_timeout: 30` a number. */
function paramStrings(params: Readonly<Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = keyPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((k) => `${path === '' ? k : `${path}.${k}`}: unknown key`).join('\n');
  }
  const message = issue.message.replace(/^Invalid (input|option): /, '').replace(/, received undefined$/, ' (missing)');
  return `${path === '' ? 'manifest' : path}: ${message}`;
}

/** `['datasets', 1, 'from']` -> `datasets[1].from`. */
export function keyPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out;
}

/** The models and their warnings, or a ManifestError listing every problem (a name twice, an unknown dataset). */
function modelsOf(docs: ManifestDocument['models'], datasets: readonly string[]) {
  const problems: string[] = [];
  const configs: ModelConfig[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  const declared = new Set(datasets.map((d) => d.toLowerCase()));
  docs.forEach((doc, i) => {
    const first = seen.get(doc.name.toLowerCase());
    if (first !== undefined)
      problems.push(`models[${i}].name: model '${doc.name}' is already declared at models[${first}]`);
    seen.set(doc.name.toLowerCase(), i);
    for (const d of doc.datasets ?? [])
      if (!declared.has(d.toLowerCase())) problems.push(`models[${i}].datasets: dataset '${d}' is not declared`);
    const c = modelConfig(doc, i);
    if (Array.isArray(c)) problems.push(...c);
    else {
      configs.push(c.config);
      warnings.push(...c.warnings);
    }
  });
  if (problems.length > 0) throw new ManifestError(problems.join('\n'));
  return { configs, warnings };
}

/** The catalogs, or a ManifestError listing every problem (a bad `from`, a name twice). */
function catalogsOf(docs: ManifestDocument['catalogs'], baseDir: string): CatalogConfig[] {
  const problems: string[] = [];
  const out: CatalogConfig[] = [];
  const seen = new Map<string, number>();
  docs.forEach((doc, i) => {
    const first = seen.get(doc.name.toLowerCase());
    if (first !== undefined)
      problems.push(`catalogs[${i}].name: catalog '${doc.name}' is already declared at catalogs[${first}]`);
    seen.set(doc.name.toLowerCase(), i);
    const c = catalogConfig(doc, i, baseDir);
    if (Array.isArray(c)) problems.push(...c);
    else out.push(c);
  });
  if (problems.length > 0) throw new ManifestError(problems.join('\n'));
  return out;
}

function duplicateNames(names: readonly string[]): void {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) {
      throw new ManifestError(`datasets[${i}].name: dataset '${name}' is already declared at datasets[${first}]`);
    }
    seen.set(name.toLowerCase(), i);
  });
}

/** `checkFileFormat`'s warnings; its problem as a ManifestError. */
function fileFormat(d: ManifestDocument['datasets'][number], index: number): string[] {
  try {
    return checkFileFormat({ ...d, params: paramStrings(d.params) }, index);
  } catch (e) {
    throw new ManifestError((e as Error).message);
  }
}

/** An S3 source: `s3://…`, or one Iceberg table on S3 (`iceberg:s3://…`). */
function isS3(from: string): boolean {
  return /^(iceberg:)?s3:\/\//i.test(from);
}

function envStoreNames(raw: unknown): string[] {
  const secrets = (raw as { secrets?: unknown } | null)?.secrets;
  if (!Array.isArray(secrets)) return [];
  return secrets.filter((s) => s?.from === 'env' && typeof s.name === 'string').map((s) => s.name as string);
}

function collectWarnings(m: z.infer<typeof manifestSchema>): string[] {
  const warnings: string[] = [];
  const note = (path: string, present: unknown) => {
    if (present !== undefined) warnings.push(`${path}: not supported yet; ignored`);
  };
  for (const section of LATER_SECTIONS) note(section, m[section]);
  for (const key of RUNTIME_LATER_KEYS) note(`runtime.${key}`, m.runtime[key]);
  note('runtime.flight.max_message_size', m.runtime.flight?.max_message_size);
  note('runtime.caching.search_results', m.runtime.caching?.search_results);
  note('runtime.caching.embeddings', m.runtime.caching?.embeddings);
  if (m.runtime.results_cache !== undefined) {
    warnings.push(
      m.runtime.caching?.sql_results === undefined
        ? 'runtime.results_cache: deprecated; read as runtime.caching.sql_results'
        : 'runtime.results_cache: ignored: runtime.caching.sql_results is set',
    );
  }
  m.secrets?.forEach((s, i) => {
    if (s.from !== 'env') warnings.push(`secrets[${i}].from: secret store '${s.from}' is not supported yet; ignored`);
  });
  m.catalogs.forEach((c, i) => {
    note(`catalogs[${i}].include`, c.include);
    for (const key of unknownCatalogParams(c)) note(`catalogs[${i}].params.${key}`, true);
  });
  m.datasets.forEach((d, i) => {
    for (const key of DATASET_LATER_KEYS) note(`datasets[${i}].${key}`, d[key]);
    for (const key of Object.keys(d.params)) {
      if (!FILE_FORMAT_PARAMS.has(key) && !(isS3(d.from) && S3_PARAMS.includes(key)))
        note(`datasets[${i}].params.${key}`, true);
    }
    for (const key of ACCELERATION_LATER_KEYS) note(`datasets[${i}].acceleration.${key}`, d.acceleration?.[key]);
    if (d.acceleration !== undefined) warnings.push(...refreshWarnings(d.acceleration, `datasets[${i}].acceleration`));
  });
  return warnings;
}
