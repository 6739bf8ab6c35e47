// `ChunkSender`: the worker's side of a result stream: batches text into chunks, spends credit, waits for acks.
import type { MessagePort } from 'node:worker_threads';
import type { Head, WorkerMessage } from './messages.js';

/** Text collected before a chunk is encoded and sent (UTF-16 units, about as many bytes for ASCII). */
export const CHUNK_CHARS = 64 * 1024;
/** Chunks that may be in flight (sent but not acknowledged by the main thread) before `write` waits. */
export const MAX_UNACKED_CHUNKS = 4;

const encoder = new TextEncoder();

/**
 * Buffers serialized text and posts it as transferable ArrayBuffers. The head goes out with the first
 * chunk, so anything that fails before `CHUNK_CHARS` of output can still become a clean error status.
 * A result that ends within one chunk is posted as a single `whole` message. `write` resolves once credit
 * allows; it also resolves when `signal` aborts, leaving the caller to notice the abort.
 */
export class ChunkSender {
  readonly #port: MessagePort;
  readonly #head: Head;
  readonly #signal: AbortSignal;
  #parts: string[] = [];
  #chars = 0;
  #headSent = false;
  #unacked = 0;
  #wake: (() => void) | null = null;

  constructor(port: MessagePort, head: Head, signal: AbortSignal) {
    this.#port = port;
    this.#head = head;
    this.#signal = signal;
    signal.addEventListener('abort', () => this.#resume(), { once: true });
  }

  /** Returns one chunk of credit (the main thread has handed a chunk to the socket). */
  ack(): void {
    this.#unacked--;
    this.#resume();
  }

  async write(text: string): Promise<void> {
    if (text === '') return;
    this.#parts.push(text);
    this.#chars += text.length;
    if (this.#chars < CHUNK_CHARS) return;
    this.#send({ type: 'chunk', body: this.#take() });
    this.#unacked++;
    while (this.#unacked > MAX_UNACKED_CHUNKS && !this.#signal.aborted) {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Flushes what is left and marks the end of the body. */
  end(): void {
    if (!this.#headSent) {
      this.#headSent = true;
      this.#post({ type: 'whole', head: this.#head, body: this.#take() });
      return;
    }
    if (this.#chars > 0) this.#post({ type: 'chunk', body: this.#take() });
    this.#post({ type: 'end' });
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
    this.#port.postMessage(message, transfer);
  }

  #take(): ArrayBuffer {
    const bytes = encoder.encode(this.#parts.join(''));
    this.#parts = [];
    this.#chars = 0;
    return bytes.buffer as ArrayBuffer;
  }

  #resume(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}
