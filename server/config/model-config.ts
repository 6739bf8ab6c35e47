// `models:` in the manifest: OpenAI-compatible chat models NSQL asks for SQL (`from: openai:<model>`).
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseDuration } from './results-cache-config.js';

/** A model floe calls: where, with which key, and how. */
export interface ModelConfig {
  readonly name: string;
  /** The manifest's `from`, as written (`openai:gpt-4o-mini`). */
  readonly from: string;
  /** The provider's model id (`gpt-4o-mini`): `from` after `openai:`. */
  readonly model: string;
  /** The OpenAI-compatible base URL (`endpoint`, default `https://api.openai.com/v1`). */
  readonly endpoint: string;
  /** `openai_api_key`; never logged or echoed. Absent: a dummy key (local servers ignore it). */
  readonly apiKey?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Replaces floe's system prompt (the question and context are still added). */
  readonly systemPrompt?: string;
  /** One model call's time-out (`timeout`, default 30 s), 429 retries included. */
  readonly timeoutMs: number;
  /** Calls to this model at once (`max_concurrent`; absent: max(2, cores)); more wait in a queue. */
  readonly maxConcurrent?: number;
  /** The datasets the model may query (`datasets`); empty: all. */
  readonly datasets: readonly string[];
}

export const DEFAULT_MODEL_ENDPOINT = 'https://api.openai.com/v1';
export const DEFAULT_MODEL_TIMEOUT_MS = 30_000;
/** Providers rate-limit per key: a few calls at once, the rest queued. */
export const defaultModelConcurrency = (): number => Math.max(2, availableParallelism());
/** Contract §8: SQL generation is steadiest at 0.0 to 0.3. */
export const RECOMMENDED_TEMPERATURE = [0, 0.3] as const;

export const modelSchema = z.strictObject({
  from: z.string(),
  name: z.string().min(1),
  description: z.string().optional(),
  params: z.record(z.string(), z.unknown()).default({}),
  datasets: z.array(z.string()).optional(),
  files: z.unknown().optional(),
  dependsOn: z.unknown().optional(),
});

export type ModelDocument = z.infer<typeof modelSchema>;

/** The model of `models[index]`, or its problems as `models[i].<key>: <problem>` lines (never quoting the key). */
export function modelConfig(doc: ModelDocument, index: number): { config: ModelConfig; warnings: string[] } | string[] {
  const at = (key: string) => `models[${index}].${key}`;
  const m = /^openai:(.+)$/i.exec(doc.from);
  if (m === null) {
    const provider = doc.from.split(':')[0] ?? doc.from;
    if (provider.toLowerCase() === 'openai')
      return [`${at('from')}: expected openai:<model> (e.g. openai:gpt-4o-mini)`];
    return [`${at('from')}: model provider '${provider}' is not supported yet (floe calls 'openai:<model>' endpoints)`];
  }
  const p = doc.params;
  const problems: string[] = [];
  const warnings: string[] = [];
  const text = (key: string) => (p[key] === undefined ? undefined : String(p[key]));
  const number = (key: string) => {
    if (p[key] === undefined) return undefined;
    const n = typeof p[key] === 'number' || typeof p[key] === 'string' ? Number(p[key]) : Number.NaN;
    if (Number.isFinite(n)) return n;
    problems.push(`${at(`params.${key}`)}: expected a number`);
    return undefined;
  };
  const endpoint = (text('endpoint') ?? DEFAULT_MODEL_ENDPOINT).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(endpoint)) problems.push(`${at('params.endpoint')}: expected an http(s):// URL`);
  const temperature = number('temperature');
  if (temperature !== undefined && (temperature < 0 || temperature > 2))
    problems.push(`${at('params.temperature')}: expected 0 to 2`);
  else if (
    temperature !== undefined &&
    (temperature < RECOMMENDED_TEMPERATURE[0] || temperature > RECOMMENDED_TEMPERATURE[1])
  )
    warnings.push(`${at('params.temperature')}: ${temperature} is outside 0.0-0.3, where SQL generation is steadiest`);
  const maxTokens = number('max_tokens');
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0))
    problems.push(`${at('params.max_tokens')}: expected a positive integer`);
  const maxConcurrent = number('max_concurrent');
  if (maxConcurrent !== undefined && !(Number.isInteger(maxConcurrent) && maxConcurrent > 0))
    problems.push(`${at('params.max_concurrent')}: expected a positive integer`);
  const t = p.timeout;
  const timeout =
    t === undefined
      ? DEFAULT_MODEL_TIMEOUT_MS
      : typeof t === 'string' || typeof t === 'number'
        ? parseDuration(t)
        : null;
  if (timeout === null || timeout <= 0) problems.push(`${at('params.timeout')}: invalid duration (e.g. 30s)`);
  const known = new Set([
    'endpoint',
    'openai_api_key',
    'temperature',
    'max_tokens',
    'system_prompt',
    'timeout',
    'max_concurrent',
  ]);
  for (const key of Object.keys(p))
    if (!known.has(key)) warnings.push(`${at(`params.${key}`)}: not supported yet; ignored`);
  if (doc.files !== undefined) warnings.push(`${at('files')}: not supported yet; ignored`);
  if (problems.length > 0) return problems;
  const apiKey = text('openai_api_key');
  const systemPrompt = text('system_prompt');
  return {
    config: {
      name: doc.name,
      from: doc.from,
      model: m[1]!,
      endpoint,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      timeoutMs: timeout as number,
      maxConcurrent: maxConcurrent ?? defaultModelConcurrency(),
      datasets: doc.datasets ?? [],
    },
    warnings,
  };
}
