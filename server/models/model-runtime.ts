// `ModelRuntime`: the manifest's models over the `openai` SDK (the only importer of openai): state and completions.
import OpenAI from 'openai';
import { defaultModelConcurrency, type ModelConfig } from '../config/model-config.js';
import { formatDuration } from '../config/query-config.js';
import { type Backoff, DEFAULT_BACKOFF, exponentialDelay, type Random } from '../datasets/backoff.js';
import { probeError, reasonOf, redact, retryAfterMs } from './call-errors.js';
import { CallLimit } from './call-limit.js';
import { type ChatMessage, ModelCallError, type ModelState, type Models } from './models.js';

export interface ModelRuntimeOptions {
  /** Delays between the probes of a model in `error`; default about 1 s doubling up to 1 min (tests shorten it). */
  readonly backoff?: Backoff;
  /** A model's status changes (ready, error); default nowhere. */
  readonly log?: (line: string) => void;
  readonly random?: Random;
  /** Called with a model's name and its new status. */
  readonly stateChanged?: (name: string, state: ModelState) => void;
}

/** A probe (GET /models) waits at most this long (or the model's shorter time-out): it holds up the start. */
export const PROBE_TIMEOUT_MS = 5000;
/** A call answered 429 is tried this many times in all (within the model's time-out), then fails `rate_limited`. */
export const RATE_LIMITED_ATTEMPTS = 4;
/** The wait before a 429's retry when the provider gave no `retry-after`: 0.5 s, doubling. */
const RATE_LIMIT_BACKOFF_MS = 500;

interface Entry {
  state: ModelState;
  readonly client: OpenAI;
  readonly limit: CallLimit;
  probes: number;
  timer: NodeJS.Timeout | null;
  /** The probe in flight (one controller each: the SDK's listeners on a shared signal would pile up). */
  probing: AbortController | null;
}

/**
 * Every model starts `loading`; `start` probes each endpoint (GET /models): `ready`, or `error` and probed again with
 * backoff until it answers (an unreachable model never stops the server). `complete` runs one chat completion with
 * the model's parameters: at most `maxConcurrent` at once per model (a FIFO queue beyond), the model's time-out
 * over the whole call (queue wait excluded, 429 retries included), 429s retried after `retry-after`.
 */
export class ModelRuntime implements Models {
  readonly #entries: Entry[];
  readonly #options: ModelRuntimeOptions;
  #closed = false;

  constructor(configs: readonly ModelConfig[], options: ModelRuntimeOptions = {}) {
    this.#options = options;
    this.#entries = configs.map((config) => ({
      state: { name: config.name, config, status: 'loading', error: null, errorMessage: null },
      client: new OpenAI({
        baseURL: config.endpoint,
        apiKey: config.apiKey ?? 'floe-no-key',
        timeout: config.timeoutMs,
        maxRetries: 0,
      }),
      limit: new CallLimit(config.maxConcurrent ?? defaultModelConcurrency()),
      probes: 0,
      timer: null,
      probing: null,
    }));
  }

  /** Probes every model once; resolves when each is `ready` or `error` (within `PROBE_TIMEOUT_MS`). */
  async start(): Promise<void> {
    await Promise.all(this.#entries.map((e) => this.#probe(e)));
  }

  /** Stops the probe timers and any probe in flight. */
  close(): void {
    this.#closed = true;
    for (const e of this.#entries) {
      if (e.timer !== null) clearTimeout(e.timer);
      e.probing?.abort();
    }
  }

  list(): readonly ModelState[] {
    return this.#entries.map((e) => e.state);
  }

  get(name: string): ModelState | undefined {
    return this.#find(name)?.state;
  }

  /** Calls running and waiting for `name` (tests and metrics). */
  load(name: string): { active: number; queued: number } | undefined {
    const e = this.#find(name);
    return e && { active: e.limit.active, queued: e.limit.queued };
  }

  /** Each model's status and calls running and queued, for the metrics. */
  figures(): { name: string; status: ModelState['status']; active: number; queued: number }[] {
    return this.#entries.map((e) => ({
      name: e.state.name,
      status: e.state.status,
      active: e.limit.active,
      queued: e.limit.queued,
    }));
  }

  async complete(name: string, messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const e = this.#find(name);
    if (e === undefined) throw new ModelCallError('failed', `Model ${name} not found`);
    let release: () => void;
    try {
      release = await e.limit.acquire(signal);
    } catch {
      throw cancelled(e);
    }
    try {
      const text = await this.#call(e, messages, signal);
      if (e.state.status !== 'ready') this.#set(e, { status: 'ready', error: null, errorMessage: null });
      return text;
    } finally {
      release();
    }
  }

  /** One completion within the time-out, retrying 429s. */
  async #call(e: Entry, messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const { config } = e.state;
    const deadline = Date.now() + config.timeoutMs;
    const timedOut = () =>
      new ModelCallError('timeout', `Model ${config.name} did not answer within ${formatDuration(config.timeoutMs)}`);
    for (let attempt = 1; ; attempt++) {
      const timer = new AbortController();
      const left = deadline - Date.now();
      const t = setTimeout(() => timer.abort(), left);
      try {
        const answer = await e.client.chat.completions.create(
          {
            model: config.model,
            messages: messages.map((x) => ({ role: x.role, content: x.content })),
            ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
            ...(config.maxTokens === undefined ? {} : { max_tokens: config.maxTokens }),
          },
          { signal: AbortSignal.any([signal, timer.signal]), timeout: Math.max(1, left) },
        );
        return answer.choices[0]?.message?.content ?? '';
      } catch (err) {
        if (signal.aborted) throw cancelled(e);
        if (timer.signal.aborted || err instanceof OpenAI.APIConnectionTimeoutError) throw timedOut();
        if (!(err instanceof OpenAI.RateLimitError)) throw callError(config, err);
        const wait = retryAfterMs(err) ?? RATE_LIMIT_BACKOFF_MS * 2 ** (attempt - 1);
        if (attempt >= RATE_LIMITED_ATTEMPTS || Date.now() + wait >= deadline) throw rateLimited(config, err, attempt);
        if (!(await sleep(wait, signal))) throw cancelled(e);
      } finally {
        clearTimeout(t);
      }
    }
  }

  /** GET /models once: `ready`, or `error` and another probe after the backoff. */
  async #probe(e: Entry): Promise<void> {
    e.timer = null;
    const { config } = e.state;
    if (this.#closed) return;
    const probing = new AbortController();
    e.probing = probing;
    const { signal } = probing;
    try {
      await e.client.models.list({ signal, timeout: Math.min(PROBE_TIMEOUT_MS, config.timeoutMs) });
      this.#set(e, { status: 'ready', error: null, errorMessage: null });
      e.probes = 0;
    } catch (err) {
      if (signal.aborted || this.#closed) return;
      const reason = redact(reasonOf(err), config.apiKey);
      e.probes++;
      const delay = exponentialDelay(e.probes, this.#options.backoff ?? DEFAULT_BACKOFF, this.#options.random);
      this.#set(e, {
        status: 'error',
        error: probeError(err),
        errorMessage: `Model ${config.name} (${config.from}) at ${config.endpoint}: ${reason}`,
      });
      e.timer = setTimeout(() => void this.#probe(e), delay);
      e.timer.unref();
    } finally {
      if (e.probing === probing) e.probing = null;
    }
  }

  #set(e: Entry, change: Pick<ModelState, 'status' | 'error' | 'errorMessage'>): void {
    const before = e.state;
    e.state = { ...before, ...change };
    if (before.status === change.status && before.errorMessage === change.errorMessage) return;
    if (change.status === 'ready' && e.timer !== null) {
      clearTimeout(e.timer);
      e.timer = null;
    }
    this.#options.log?.(
      change.status === 'ready'
        ? `floe: model ${before.name} ready`
        : `floe: model ${before.name} not ready (retried): ${change.errorMessage}`,
    );
    this.#options.stateChanged?.(before.name, e.state);
  }

  #find(name: string): Entry | undefined {
    return (
      this.#entries.find((e) => e.state.name === name) ??
      this.#entries.find((e) => e.state.name.toLowerCase() === name.toLowerCase())
    );
  }
}

function cancelled(e: Entry): ModelCallError {
  return new ModelCallError('cancelled', `Model ${e.state.name}: the request was cancelled`);
}

/** The SDK's error as a `ModelCallError` of the right kind, naming the model, without the key. */
function callError(config: ModelConfig, e: unknown): ModelCallError {
  const reason = redact(reasonOf(e), config.apiKey);
  const say = (kind: ModelCallError['kind']) => new ModelCallError(kind, `Model ${config.name}: ${reason}`);
  if (e instanceof OpenAI.AuthenticationError || e instanceof OpenAI.PermissionDeniedError) return say('auth');
  if (e instanceof OpenAI.APIConnectionError) return say('connection');
  return say('failed');
}

function rateLimited(
  config: ModelConfig,
  e: InstanceType<typeof OpenAI.RateLimitError>,
  attempts: number,
): ModelCallError {
  const after = retryAfterMs(e);
  const afterS = after === undefined ? undefined : Math.ceil(after / 1000);
  const reason = redact(reasonOf(e), config.apiKey);
  const retry = afterS === undefined ? '' : `; it asked to retry after ${afterS}s`;
  return new ModelCallError(
    'rate_limited',
    `Model ${config.name}: the provider rate-limited the request (429) ${attempts} time(s)${retry}: ${reason}`,
    afterS,
  );
}

/** Waits `ms`; false when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
