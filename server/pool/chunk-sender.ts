// `ChunkSender`: the worker's side of a result stream: batches text into chunks, spends credit, waits for acks.
import type { MessagePort } from 'node:worker_threads';
import type { Head, WireError, WorkerMessage } from './messages.js';

/** Output collected before a chunk is encoded and sent (UTF-16 units of text plus bytes already encoded). */
export const CHUNK_CHARS = 64 * 1024;
/**
 * Bytes that may be in flight (sent but not acknowledged by the main thread) before `write` waits. Credit is
 * counted in bytes, not chunks, because one batch of 64 Ki rows can serialize to several MiB in one chunk.
 */
export const MAX_UNACKED_BYTES = 1024 * 1024;

const encoder = new TextEncoder();

/**
 * Buffers serialized text and posts it as transferable ArrayBuffers on the worker's port, tagged with the
 * query's id. The head goes out with the first chunk, so anything that fails before `CHUNK_CHARS` of output
 * can still become a clean error status. A result that ends within one chunk is not posted at all: `end`
 * returns it as one `whole` message for the task to return. `write` resolves once credit allows; it also
 * resolves when `signal` aborts, leaving the caller to notice the abort.
 */
export class ChunkSender {
  readonly #port: MessagePort;
  readonly #id: number;
  readonly #head: Head;
  readonly #signal: AbortSignal;
  #parts: (string | Uint8Array)[] = [];
  #chars = 0;
  /** Whether a part is bytes (else `#take` joins strings and encodes once). */
  #hasBytes = false;
  #headSent = false;
  /** Sizes of the chunks sent and not yet acknowledged, oldest first (acks arrive in order). */
  #unacked: number[] = [];
  #unackedBytes = 0;
  #wake: (() => void) | null = null;
  #listening = false;

  constructor(port: MessagePort, id: number, head: Head, signal: AbortSignal) {
    this.#port = port;
    this.#id = id;
    this.#head = head;
    this.#signal = signal;
  }

  /** Returns the credit of the oldest unacknowledged chunk (the main thread has flushed it to the socket). */
  ack(): void {
    this.#unackedBytes -= this.#unacked.shift() ?? 0;
    this.#resume();
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (text.length === 0) return;
    this.#parts.push(text);
    this.#chars += text.length;
    if (typeof text !== 'string') this.#hasBytes = true;
    if (this.#chars < CHUNK_CHARS) return;
    const body = this.#take();
    // Read the size first: posting transfers (detaches) the buffer.
    const size = body.byteLength;
    this.#send({ type: 'chunk', body });
    this.#unacked.push(size);
    this.#unackedBytes += size;
    while (!this.#signal.aborted && this.#unackedBytes > MAX_UNACKED_BYTES) {
      // Listen for a cancel only once a wait for credit begins (most answers never wait, or never stream).
      if (!this.#listening) {
        this.#listening = true;
        this.#signal.addEventListener('abort', () => this.#resume(), { once: true });
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** True once the head went out on the port: from then on the stream must end there (`end` or `fail`). */
  get streaming(): boolean {
    return this.#headSent;
  }

  /**
   * Flushes what is left and marks the end of the body. Returns the `whole` message when nothing was streamed
   * (the caller hands it back as the task's result), else null.
   */
  end(): WorkerMessage | null {
    if (!this.#headSent) return { type: 'whole', head: this.#head, body: this.#take() };
    if (this.#chars > 0) this.#post({ type: 'chunk', body: this.#take() });
    this.#post({ type: 'end' });
    return null;
  }

  /** Ends a stream that has started with an error (the main thread cuts the connection). */
  fail(error: WireError): void {
    this.#post({ type: 'error', error });
  }

  #send(message: WorkerMessage): void {
    if (!this.#headSent) {
      this.#headSent = true;
      this.#post({ type: 'head', head: this.#head });
    }
    this.#post(message);
  }

  #post(message: WorkerMessage): void {
    const transfer = 'body' in message ? [message.body] : [];
    this.#port.postMessage({ ...message, id: this.#id }, transfer);
  }

  #take(): ArrayBuffer {
    const parts = this.#parts;
    this.#parts = [];
    this.#chars = 0;
    if (!this.#hasBytes) return encoder.encode(parts.join('')).buffer as ArrayBuffer;
    this.#hasBytes = false;
    const encoded = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
    if (
      encoded.length === 1 &&
      encoded[0]!.byteOffset === 0 &&
      encoded[0]!.byteLength === encoded[0]!.buffer.byteLength
    )
      return encoded[0]!.buffer as ArrayBuffer;
    const out = new Uint8Array(encoded.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of encoded) {
      out.set(p, at);
      at += p.length;
    }
    return out.buffer;
  }

  #resume(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
