// `runNsql`: context → (generate → clean → validate → execute) up to 10 times, reporting each step as an event.
import type { Principal } from '../auth/principal.js';
import type { ChatMessage, Models } from '../models/models.js';
import { ModelCallError } from '../models/models.js';
import type { Head, WireError } from '../pool/messages.js';
import type { QueryService } from '../runtime/query-service.js';
import type { ResultFormat } from '../serialize/serializer.js';
import { cleanSql, hiddenWrite } from './clean-sql.js';
import { collectAnswer, QueryFailedError } from './collect-answer.js';
import { buildContext } from './nsql-context.js';
import { buildPrompt, defaultInstructions, estimateTokens, type FailedAttempt } from './nsql-prompt.js';

/** Contract §8: attempts in all (the first one and nine retries). */
export const NSQL_MAX_ATTEMPTS = 10;

/** What the model is told when its answer held no query (it is also the attempt's error). */
export const NO_SQL_ERROR = 'the answer held no SQL query (expected one SELECT or WITH statement)';

/** The steps as they happen (SSE sends each; the other formats ignore them). */
export type NsqlEvent =
  | { readonly type: 'context'; readonly tables: readonly string[]; readonly prompt_tokens: number }
  | { readonly type: 'sql'; readonly attempt: number; readonly sql: string }
  | {
      readonly type: 'error';
      readonly attempt: number;
      readonly stage: 'generation' | 'validation' | 'execution';
      readonly message: string;
    };

export interface NsqlJob {
  readonly service: QueryService;
  readonly models: Models;
  readonly model: string;
  readonly principal: Principal;
  readonly question: string;
  readonly allowed: readonly string[];
  readonly sampled: readonly string[];
  /** The model's `system_prompt`, replacing floe's instructions. */
  readonly systemPrompt?: string;
  /** The result format, or null for `application/sql` (nothing runs after validation). */
  readonly format: ResultFormat | null;
  readonly signal: AbortSignal;
  onEvent(event: NsqlEvent): void;
}

/** A finished job: the SQL and its answer (no body on a dry run), or a failure as status + text. */
export type NsqlOutcome =
  | { readonly ok: true; readonly sql: string; readonly attempts: number; readonly answer: Answer | null }
  | {
      readonly ok: false;
      readonly status: number;
      readonly message: string;
      readonly attempts: number;
      readonly retryAfterS?: number;
    };
type Answer = { readonly head: Head; readonly body: Buffer };

/** An attempt's failure: retried with the model (`retry`), or the end of the job. */
type Step = { retry: FailedAttempt & { stage: 'generation' | 'validation' | 'execution' } } | { end: NsqlOutcome };

/**
 * Runs the job (§4.1's order). Failures the model can fix (no SQL, validation, execution) are retried with every
 * failed attempt in the prompt; after 10: 500 `No query produced from NSQL model` when no attempt gave any SQL,
 * else 400 `Error executing query: <last error>`. A model call failure ends the job at once (`modelFailure`);
 * so does a query refused for the server's own reasons (overloaded, unavailable, internal).
 */
export async function runNsql(job: NsqlJob): Promise<NsqlOutcome> {
  const reader: Principal = { id: job.principal.id, canWrite: false };
  const context = await buildContext({ ...job, principal: reader });
  const instructions = job.systemPrompt ?? defaultInstructions(context.tables);
  const failed: FailedAttempt[] = [];
  let producedSql = false;
  for (let attempt = 1; attempt <= NSQL_MAX_ATTEMPTS; attempt++) {
    if (job.signal.aborted) return { ok: false, status: 499, message: 'NSQL request cancelled', attempts: attempt - 1 };
    const messages = buildPrompt(instructions, context, job.question, failed);
    if (attempt === 1)
      job.onEvent({ type: 'context', tables: context.tables, prompt_tokens: estimateTokens(messages) });
    const step = await runAttempt(job, reader, messages, attempt);
    if ('end' in step) return step.end;
    const { stage, sql, error } = step.retry;
    if (sql !== '') producedSql = true;
    job.onEvent({ type: 'error', attempt, stage, message: error });
    failed.push({ sql, error });
  }
  const last = failed[failed.length - 1]?.error ?? NO_SQL_ERROR;
  return producedSql
    ? { ok: false, status: 400, message: `Error executing query: ${last}`, attempts: NSQL_MAX_ATTEMPTS }
    : { ok: false, status: 500, message: 'No query produced from NSQL model', attempts: NSQL_MAX_ATTEMPTS };
}

async function runAttempt(job: NsqlJob, reader: Principal, messages: ChatMessage[], attempt: number): Promise<Step> {
  let text: string;
  try {
    text = await job.models.complete(job.model, messages, job.signal);
  } catch (e) {
    return { end: modelFailure(e, attempt) };
  }
  const sql = cleanSql(text);
  if (sql === null) return { retry: { stage: 'generation', sql: '', error: NO_SQL_ERROR } };
  job.onEvent({ type: 'sql', attempt, sql });
  const refused = await validate(job, reader, sql);
  if (typeof refused === 'string') return { retry: { stage: 'validation', sql, error: refused } };
  if (refused !== null) return { end: serverFailure(refused, attempt) };
  if (job.format === null) return { end: { ok: true, sql, attempts: attempt, answer: null } };
  try {
    const answer = await collectAnswer(job.service, sql, job.format, reader, job.signal);
    return { end: { ok: true, sql, attempts: attempt, answer } };
  } catch (e) {
    if (!(e instanceof QueryFailedError)) throw e;
    if (!RETRIED_KINDS.has(e.wire.kind)) return { end: serverFailure(e.wire, attempt) };
    return { retry: { stage: 'execution', sql, error: e.message } };
  }
}

/** Query errors the model may fix by writing another query. */
const RETRIED_KINDS = new Set([
  'parse',
  'plan',
  'exec',
  'not_supported',
  'forbidden',
  'memory',
  'timeout',
  'bad_request',
]);

/**
 * Parse + bind + plan without running: `EXPLAIN <sql>` as a read-only principal, after `hiddenWrite` (EXPLAIN
 * plans `SELECT … INTO` as its SELECT; the execution runs read-only as well, so the engine would refuse it). Returns null when it passes, the error text for the model, or a `WireError` the model cannot
 * fix (the server is overloaded or stopping). A table outside `allowed` fails with a message naming the tables.
 */
async function validate(job: NsqlJob, reader: Principal, sql: string): Promise<string | WireError | null> {
  const write = hiddenWrite(sql);
  if (write !== null) return `only a read-only SELECT is allowed: the query contains ${write}`;
  try {
    const { head } = await collectAnswer(job.service, `EXPLAIN ${sql}`, 'json', reader, job.signal, true);
    const allowed = new Set(job.allowed.map((t) => t.toLowerCase()));
    const outside = head.tables.filter((t) => !allowed.has(t.toLowerCase()));
    if (outside.length === 0) return null;
    return `table ${outside.map((t) => `"${t}"`).join(', ')} is not available to this model; use only: ${job.allowed.join(', ')}`;
  } catch (e) {
    if (!(e instanceof QueryFailedError)) throw e;
    if (!RETRIED_KINDS.has(e.wire.kind)) return e.wire;
    const write = e.wire.kind === 'forbidden' || /read-only SQL context/.test(e.message);
    return write ? `only a read-only SELECT is allowed: ${e.message}` : e.message;
  }
}

/** Status of each model call failure: the provider's limit, our time-out, or a bad gateway. */
const MODEL_STATUS: Readonly<Record<ModelCallError['kind'], number>> = {
  timeout: 504,
  rate_limited: 429,
  auth: 502,
  connection: 502,
  failed: 502,
  cancelled: 499,
};

function modelFailure(e: unknown, attempt: number): NsqlOutcome {
  if (!(e instanceof ModelCallError)) throw e;
  const message = `NSQL model call failed (${e.kind}): ${e.message}`;
  return { ok: false, status: MODEL_STATUS[e.kind], message, attempts: attempt, retryAfterS: e.retryAfterS };
}

/** The query service refused for its own reasons: the same statuses /v1/sql gives. */
function serverFailure(wire: WireError, attempt: number): NsqlOutcome {
  const status =
    wire.kind === 'rate_limited' ? 429 : wire.kind === 'cancelled' ? 499 : wire.kind === 'internal' ? 500 : 503;
  const message = wire.kind === 'internal' ? `Internal server error (ref ${wire.ref ?? 'none'})` : wire.message;
  return { ok: false, status, message, attempts: attempt, retryAfterS: wire.retryAfterS };
}
