// The `openai` SDK's failures as floe says them: a probe's `ModelErrorInfo`, a call's `ModelCallError` kind, and the
// provider's reason with the API key taken out (providers echo a wrong key back).
import OpenAI from 'openai';
import type { ModelErrorInfo } from './models.js';

/** `text` with every occurrence of `apiKey` replaced (a key shorter than 4 characters is not worth hiding). */
export function redact(text: string, apiKey: string | undefined): string {
  if (apiKey === undefined || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}

/** The provider's reason: the SDK's message and, for a connection failure, the innermost cause (`ECONNREFUSED`). */
export function reasonOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  let message = e.message;
  if (e instanceof OpenAI.APIConnectionError) {
    let cause: unknown = e.cause;
    let inner: string | undefined;
    for (let i = 0; i < 5 && cause instanceof Error; i++, cause = cause.cause) {
      const code = (cause as { code?: unknown }).code;
      inner = typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
    }
    if (inner !== undefined && inner !== message) message = `${message} (${inner})`;
  }
  return message;
}

/** Why a probe failed: 401/403 `auth`; no answer `connection`; any other answer (404, 5xx: model not served) `loading`. */
export function probeError(e: unknown): ModelErrorInfo {
  const type =
    e instanceof OpenAI.AuthenticationError || e instanceof OpenAI.PermissionDeniedError
      ? 'auth'
      : e instanceof OpenAI.APIError && e.status !== undefined
        ? 'loading'
        : 'connection';
  return { category: 'model', type, code: `model.${type}` };
}

/** Seconds a 429 asked to wait (`retry-after-ms`, `retry-after` as seconds or an HTTP date), or undefined. */
export function retryAfterMs(e: InstanceType<typeof OpenAI.RateLimitError>): number | undefined {
  const headers = e.headers as Headers | undefined;
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (value === null || value === undefined) return undefined;
  const s = Number(value);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
