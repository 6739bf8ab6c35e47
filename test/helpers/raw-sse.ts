// `openSseStream`: a raw GET that stays open (an SSE stream) read as text, for tests that check the bytes on the wire.
import { request as httpRequest, type IncomingMessage } from 'node:http';

/** A raw SSE stream: its status, headers and the text read so far (`until` waits for a pattern). */
export interface RawStream {
  readonly res: IncomingMessage;
  text(): string;
  until(pattern: RegExp): Promise<RegExpExecArray>;
  readonly ended: Promise<void>;
  close(): void;
}

/** GET `url` with `Accept: text/event-stream` and `headers`, from `localAddress` when given. */
export function openSseStream(url: URL, headers: Record<string, string>, localAddress?: string): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      headers: { Accept: 'text/event-stream', ...headers },
      ...(localAddress === undefined ? {} : { localAddress }),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      const waiters: (() => void)[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const w of waiters.splice(0)) w();
      });
      const ended = new Promise<void>((r) => res.on('close', () => r()));
      const until = async (pattern: RegExp) => {
        for (;;) {
          const m = pattern.exec(text);
          if (m) return m;
          await new Promise<void>((r) => waiters.push(r));
        }
      };
      resolve({ res, text: () => text, until, ended, close: () => req.destroy() });
    });
    req.end();
  });
}
