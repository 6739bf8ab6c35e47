// The fuzzer's oracle: every answer is a 200 or a 4xx with a message, in time, without a stack trace.
import type { FuzzCase } from './fuzz-case.js';
import type { RawOutcome } from './raw-send.js';

export type Verdict =
  | { readonly ok: true; readonly status: number | 'closed' }
  | { readonly ok: false; readonly kind: FailureKind; readonly signature: string; readonly detail: string };

export type FailureKind = '5xx' | 'hang' | 'crash' | 'stack' | 'empty-message' | 'no-answer' | 'bad-response';

/** A JavaScript stack frame in a body: `    at fn (file.js:1:2)` or `at file:///x.js:1:2`. */
const STACK_FRAME = /\n\s*at .*(?:\.[cm]?js|<anonymous>|node:[a-z_]+):\d+/;

/** The shape of an error message: quoted text and numbers blanked, so one bug gives one signature. */
export function messageShape(message: string): string {
  let shape = message
    .replace(/\[ref [0-9a-f]+\]|\(ref [0-9a-f]+\)/g, '')
    .replace(/'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"/g, '?')
    .replace(/-?\d+(?:\.\d+)?/g, 'N')
    .replace(/\[[^\]]*\]/g, '[…]');
  // The expression an internal error names varies with the query: keep its outline, `f(…)`.
  for (let before = ''; before !== shape; ) {
    before = shape;
    shape = shape.replace(/(\w+)?\((?!…\))(?:[^()]|\(…\))*\)|\w+\(…\)/g, (m) => (/^\w/.test(m) ? 'f(…)' : '(…)'));
  }
  return shape.replace(/\s+/g, ' ').trim().slice(0, 160);
}

/**
 * Judges one case's outcome. `internal(ref)` looks up the server's log line for a 500's reference id, so
 * distinct internal errors get distinct signatures.
 */
export function judge(c: FuzzCase, outcome: RawOutcome, internal: (body: string) => string | undefined): Verdict {
  if (outcome.timedOut)
    return {
      ok: false,
      kind: 'hang',
      signature: `hang: ${c.source}/${c.label}`,
      detail: 'no answer and no close before the deadline',
    };
  for (const r of outcome.responses) {
    if (r.status === 0)
      return { ok: false, kind: 'bad-response', signature: 'unparseable status line', detail: r.body.slice(0, 200) };
    if (r.status >= 500) {
      const message = internal(r.body) ?? r.body;
      return {
        ok: false,
        kind: '5xx',
        signature: `${r.status}: ${messageShape(message)}`,
        detail: message.slice(0, 300),
      };
    }
    if (STACK_FRAME.test(r.body))
      return {
        ok: false,
        kind: 'stack',
        signature: `stack in ${r.status}: ${messageShape(r.body.split('\n')[0]!)}`,
        detail: r.body.slice(0, 300),
      };
    // A HEAD answer has no body by definition.
    if (r.status >= 400 && r.body.trim() === '' && !/^HEAD /i.test(c.raw.bytes.subarray(0, 5).toString('latin1')))
      return {
        ok: false,
        kind: 'empty-message',
        signature: `empty ${r.status} body: ${c.source}/${c.label}`,
        detail: '',
      };
  }
  const first = outcome.responses[0];
  if (first) return { ok: true, status: first.status };
  // A well-formed query must be answered; garbage may just be hung up on.
  if (c.source !== 'http')
    return {
      ok: false,
      kind: 'no-answer',
      signature: `closed without an answer: ${c.source}/${c.label}`,
      detail: outcome.error ?? '',
    };
  return { ok: true, status: 'closed' };
}
