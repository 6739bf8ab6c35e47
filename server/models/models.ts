// `Models`: the manifest's language models as the front ends see them: state, and one chat completion at a time.
import type { ModelConfig } from '../config/model-config.js';

export type ModelStatus = 'loading' | 'ready' | 'error';

/** Why a model is not ready (contract §2.5): `{category: 'model', type, code: 'model.<type>'}`. */
export interface ModelErrorInfo {
  readonly category: 'model';
  readonly type: 'auth' | 'connection' | 'loading';
  readonly code: string;
}

export interface ModelState {
  readonly name: string;
  readonly config: ModelConfig;
  readonly status: ModelStatus;
  readonly error: ModelErrorInfo | null;
  /** Human-readable, set when `status` is `error`; never carries the API key. */
  readonly errorMessage: string | null;
}

/** One chat message as the OpenAI API takes it. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/**
 * A model call that failed: `timeout` (the model's `timeout` passed), `rate_limited` (the provider answered 429, after
 * floe's own retries; `retryAfterS` when it said), `auth` (401/403), `connection` (unreachable), `failed` (any other
 * answer), `cancelled` (the caller's signal). The message names the model and the provider's reason, never the key.
 */
export class ModelCallError extends Error {
  constructor(
    readonly kind: 'timeout' | 'rate_limited' | 'auth' | 'connection' | 'failed' | 'cancelled',
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

export interface Models {
  /** Every configured model, in manifest order. */
  list(): readonly ModelState[];
  /** The model named `name` (exact, then case-insensitive), or undefined. */
  get(name: string): ModelState | undefined;
  /**
   * One chat completion by model `name` (its temperature, max_tokens and time-out): the text of the first choice,
   * '' when the model gave none. Calls are bounded in number at once (a queue beyond); throws `ModelCallError`.
   */
  complete(name: string, messages: readonly ChatMessage[], signal: AbortSignal): Promise<string>;
}
