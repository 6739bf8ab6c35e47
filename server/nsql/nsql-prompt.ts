// `buildPrompt`: the chat messages of one NSQL attempt: instructions + context (+ failed attempts), then the question.
import type { ChatMessage } from '../models/models.js';
import { CHARS_PER_TOKEN, type NsqlContext, quoteIfNeeded } from './nsql-context.js';

/** One attempt that failed: the SQL the model gave (or '' for none) and why it failed. */
export interface FailedAttempt {
  readonly sql: string;
  readonly error: string;
}

/** An error message in the prompt is cut to this many characters (engine errors can quote long SQL). */
const ERROR_CHARS = 500;

/** floe's instructions (a model's `system_prompt` replaces them; the context is added either way). */
export function defaultInstructions(tables: readonly string[]): string {
  return [
    'You translate questions into SQL for floe, a PostgreSQL-compatible query engine.',
    'Answer with exactly one read-only SQL query (SELECT or WITH ... SELECT) in the PostgreSQL dialect, and nothing',
    'else: no explanation, no code fences, no trailing semicolon. Never write INSERT, UPDATE, DELETE, CREATE or DROP.',
    'Use only the tables and columns listed below; double-quote any identifier that has capital letters or',
    `special characters. The tables you may use: ${tables.map(quoteIfNeeded).join(', ') || '(none)'}.`,
  ].join('\n');
}

/**
 * `[system, user]`: the system message is the instructions, then the context, then (on a retry) every failed
 * attempt with its error, asking for a different query; the user message is the question as asked.
 */
export function buildPrompt(
  instructions: string,
  context: NsqlContext,
  question: string,
  failed: readonly FailedAttempt[],
): ChatMessage[] {
  let system = `${instructions}\n\n${context.text}`;
  if (failed.length > 0) {
    system += '\n## Failed attempts\nThese queries failed; write a corrected query that avoids the same mistakes:\n';
    for (const f of failed) {
      const error = f.error.length <= ERROR_CHARS ? f.error : `${f.error.slice(0, ERROR_CHARS)}…`;
      system += `\nsql: ${f.sql === '' ? '(no SQL in the answer)' : f.sql}\nerror: ${error}\n`;
    }
  }
  return [
    { role: 'system', content: system },
    { role: 'user', content: question },
  ];
}

/** The prompt's size in tokens, estimated at ~4 characters per token. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / CHARS_PER_TOKEN);
}
