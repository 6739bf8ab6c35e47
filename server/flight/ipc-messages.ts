// `IpcMessageSplitter`: cuts an Arrow IPC stream (arriving in arbitrary chunks) into messages, one per FlightData.

/** One encapsulated IPC message: the flatbuffer `Message` (FlightData.data_header) and its body (data_body). */
export interface IpcMessage {
  readonly header: Uint8Array;
  readonly body: Uint8Array;
}

const CONTINUATION = 0xffffffff;
const EMPTY = new Uint8Array(0);

/**
 * Feed it the stream's bytes as they come (`push`); it hands back every message completed so far. A byte is
 * copied at most once (only when a message straddles chunks), so a long stream costs no more than its size.
 * The end-of-stream marker (length 0) ends nothing here: the caller knows when the stream ends.
 */
export class IpcMessageSplitter {
  #chunks: Uint8Array[] = [];
  #bytes = 0;

  push(chunk: Uint8Array): IpcMessage[] {
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#bytes += chunk.length;
    }
    const out: IpcMessage[] = [];
    for (;;) {
      const message = this.#next();
      if (message === null) return out;
      if (message !== 'marker') out.push(message);
    }
  }

  /** Bytes received and not yet part of a whole message (non-zero at the end: a truncated stream). */
  get pending(): number {
    return this.#bytes;
  }

  #next(): IpcMessage | 'marker' | null {
    if (this.#bytes < 8) return null;
    const prefix = this.#peek(8);
    const view = new DataView(prefix.buffer, prefix.byteOffset, 8);
    const continued = view.getUint32(0, true) === CONTINUATION;
    const headerLength = continued ? view.getInt32(4, true) : view.getInt32(0, true);
    const prefixLength = continued ? 8 : 4;
    if (headerLength === 0) {
      this.#take(prefixLength);
      return 'marker';
    }
    if (this.#bytes < prefixLength + headerLength) return null;
    const framed = this.#peek(prefixLength + headerLength);
    const header = framed.subarray(prefixLength);
    const bodyLength = messageBodyLength(header);
    if (this.#bytes < prefixLength + headerLength + bodyLength) return null;
    const whole = this.#take(prefixLength + headerLength + bodyLength);
    const end = prefixLength + headerLength;
    return { header: whole.subarray(prefixLength, end), body: bodyLength === 0 ? EMPTY : whole.subarray(end) };
  }

  /** The first `n` buffered bytes as one array (joined once when they straddle chunks). */
  #peek(n: number): Uint8Array {
    const first = this.#chunks[0] as Uint8Array;
    if (first.length >= n) return first.subarray(0, n);
    const joined = new Uint8Array(this.#bytes);
    let at = 0;
    for (const c of this.#chunks) {
      joined.set(c, at);
      at += c.length;
    }
    this.#chunks = [joined];
    return joined.subarray(0, n);
  }

  #take(n: number): Uint8Array {
    const bytes = this.#peek(n);
    const first = this.#chunks[0] as Uint8Array;
    if (first.length === n) this.#chunks.shift();
    else this.#chunks[0] = first.subarray(n);
    this.#bytes -= n;
    return bytes;
  }
}

/**
 * `bodyLength` (field 3, an int64) of a flatbuffer `Message` table: root offset → table → vtable → the field's
 * offset; 0 when absent (a schema message).
 */
export function messageBodyLength(header: Uint8Array): number {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const table = view.getUint32(0, true);
  const vtable = table - view.getInt32(table, true);
  const vtableLength = view.getUint16(vtable, true);
  const slot = 4 + 3 * 2;
  if (slot + 2 > vtableLength) return 0;
  const offset = view.getUint16(vtable + slot, true);
  return offset === 0 ? 0 : Number(view.getBigInt64(table + offset, true));
}

/** `message` framed again as stream bytes (continuation, length, header padded to 8, body). */
export function frameIpcMessage(message: IpcMessage): Uint8Array {
  const padded = (message.header.length + 7) & ~7;
  const out = new Uint8Array(8 + padded + message.body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, CONTINUATION, true);
  view.setInt32(4, padded, true);
  out.set(message.header, 8);
  out.set(message.body, 8 + padded);
  return out;
}
