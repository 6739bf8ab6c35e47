// A scripted OpenAI-compatible server on loopback (the one allowed fake: no model weights exist here). It records
// every request and answers chat completions from a script, so tests drive NSQL's prompts, retries and failures.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat completion request as the server received it. */
export interface RecordedChat {
  readonly model: string;
  readonly messages: readonly { role: string; content: string }[];
  readonly temperature?: number;
  readonly max_tokens?: number;
  readonly stream?: boolean;
  readonly authorization: string | undefined;
}

/**
 * What the script answers: the assistant's text; or an HTTP error (`status`, optional `retryAfterS`, `body`); or
 * `delayMs` before either (a slow model); or `hang` (never answers until the client gives up).
 */
export type ScriptedAnswer =
  | string
  | {
      readonly content?: string;
      readonly status?: number;
      readonly retryAfterS?: number;
      readonly body?: string;
      readonly delayMs?: number;
    }
  | { readonly hang: true };

export interface FakeLlm {
  /** `http://127.0.0.1:<port>/v1`: the `endpoint` a model entry takes. */
  readonly endpoint: string;
  /** Every chat completion request so far, in order. */
  readonly chats: RecordedChat[];
  /** GET /v1/models requests so far. */
  modelListCalls: number;
  /** Replaces the script: called with each chat request and its 0-based index. */
  script: (chat: RecordedChat, index: number) => ScriptedAnswer;
  /** The model ids GET /v1/models lists (default `['fake-sql']`); `modelsStatus` makes it fail (401: a bad key). */
  models: string[];
  modelsStatus: number;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 (`port`, default a free one). The default script answers `SELECT 1`. */
export async function startFakeLlm(script?: FakeLlm['script'], port = 0): Promise<FakeLlm> {
  const open = new Set<ServerResponse>();
  const fake: FakeLlm = {
    endpoint: '',
    chats: [],
    modelListCalls: 0,
    script: script ?? (() => 'SELECT 1'),
    models: ['fake-sql'],
    modelsStatus: 200,
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    handle(fake, req, res).catch((e) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(e) } }));
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  (fake as { endpoint: string }).endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

async function handle(fake: FakeLlm, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.method === 'GET' && url.pathname === '/v1/models') {
    fake.modelListCalls++;
    // As OpenAI does, a 401 echoes the key it was given (floe must not pass it on).
    const key = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (fake.modelsStatus === 401) return error(res, 401, `Incorrect API key provided: ${key}`);
    if (fake.modelsStatus !== 200) return error(res, fake.modelsStatus, `scripted ${fake.modelsStatus}`);
    const data = fake.models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'fake' }));
    return json(res, 200, { object: 'list', data });
  }
  if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') return error(res, 404, 'not found');
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const chat: RecordedChat = { ...body, authorization: req.headers.authorization };
  const index = fake.chats.push(chat) - 1;
  const answer = fake.script(chat, index);
  if (typeof answer === 'object' && 'hang' in answer) return;
  const a = typeof answer === 'string' ? { content: answer } : answer;
  if (a.delayMs !== undefined) await new Promise((r) => setTimeout(r, a.delayMs));
  if (res.destroyed) return;
  if (a.status !== undefined && a.status !== 200) {
    const headers: Record<string, string> = a.retryAfterS === undefined ? {} : { 'retry-after': String(a.retryAfterS) };
    return error(res, a.status, a.body ?? `scripted ${a.status}`, headers);
  }
  return json(res, 200, {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 1700000000,
    model: chat.model,
    choices: [{ index: 0, message: { role: 'assistant', content: a.content ?? '' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  json(res, status, { error: { message, type: 'invalid_request_error', code: null } }, headers);
}
