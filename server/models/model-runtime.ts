// `ModelRuntime`: the manifest's models over the `openai` SDK (the only importer of openai): state and completions.
import OpenAI from 'openai';
import type { ModelConfig } from '../config/model-config.js';
import { type ChatMessage, ModelCallError, type ModelState, type Models } from './models.js';

/**
 * Every model starts `loading`; `start` probes each endpoint (GET /models) and marks it `ready` or `error`.
 * `complete` runs one chat completion with the model's parameters and time-out.
 */
export class ModelRuntime implements Models {
  readonly #models: { state: ModelState; client: OpenAI }[];

  constructor(configs: readonly ModelConfig[]) {
    this.#models = configs.map((config) => ({
      state: { name: config.name, config, status: 'loading', error: null, errorMessage: null },
      client: new OpenAI({
        baseURL: config.endpoint,
        apiKey: config.apiKey ?? 'floe-no-key',
        timeout: config.timeoutMs,
        maxRetries: 0,
      }),
    }));
  }

  /** Probes every model once (an unreachable one is `error`, never a failed start). */
  async start(): Promise<void> {
    await Promise.all(
      this.#models.map(async (m) => {
        try {
          await m.client.models.list();
          m.state = { ...m.state, status: 'ready', error: null, errorMessage: null };
        } catch (e) {
          const type = e instanceof OpenAI.AuthenticationError ? 'auth' : 'connection';
          const reason = e instanceof Error ? e.message : String(e);
          m.state = {
            ...m.state,
            status: 'error',
            error: { category: 'model', type, code: `model.${type}` },
            errorMessage: `Model ${m.state.name} (${m.state.config.from}): ${reason}`,
          };
        }
      }),
    );
  }

  list(): readonly ModelState[] {
    return this.#models.map((m) => m.state);
  }

  get(name: string): ModelState | undefined {
    return this.#find(name)?.state;
  }

  async complete(name: string, messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const m = this.#find(name);
    if (m === undefined) throw new ModelCallError('failed', `Model ${name} not found`);
    const { config } = m.state;
    try {
      const answer = await m.client.chat.completions.create(
        {
          model: config.model,
          messages: messages.map((x) => ({ role: x.role, content: x.content })),
          ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
          ...(config.maxTokens === undefined ? {} : { max_tokens: config.maxTokens }),
        },
        { signal },
      );
      return answer.choices[0]?.message?.content ?? '';
    } catch (e) {
      throw callError(name, e, signal);
    }
  }

  #find(name: string) {
    return (
      this.#models.find((m) => m.state.name === name) ??
      this.#models.find((m) => m.state.name.toLowerCase() === name.toLowerCase())
    );
  }
}

/** The SDK's error as a `ModelCallError` of the right kind. */
function callError(name: string, e: unknown, signal: AbortSignal): ModelCallError {
  const reason = e instanceof Error ? e.message : String(e);
  if (signal.aborted) return new ModelCallError('cancelled', `model ${name}: the request was cancelled`);
  if (e instanceof OpenAI.APIConnectionTimeoutError) return new ModelCallError('timeout', `model ${name} timed out`);
  if (e instanceof OpenAI.RateLimitError) return new ModelCallError('rate_limited', `model ${name}: ${reason}`);
  if (e instanceof OpenAI.AuthenticationError || e instanceof OpenAI.PermissionDeniedError)
    return new ModelCallError('auth', `model ${name}: ${reason}`);
  if (e instanceof OpenAI.APIConnectionError) return new ModelCallError('connection', `model ${name}: ${reason}`);
  return new ModelCallError('failed', `model ${name}: ${reason}`);
}
