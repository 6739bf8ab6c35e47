// `splitArrowMessages`: cuts Arrow IPC stream bytes into messages, each as Flight's FlightData header and body.
/** One encapsulated IPC message: `header` is the flatbuffer `Message` (FlightData.data_header), `body` its buffers. */
export interface ArrowMessage {
  readonly header: Uint8Array;
  readonly body: Uint8Array;
}

const CONTINUATION = -1;
/** Byte offset of `bodyLength` in the `Message` table's vtable: fields version, header_type, header, bodyLength. */
const BODY_LENGTH_VTABLE_SLOT = 4 + 2 * 3;

/**
 * The messages of `bytes`, which must hold whole encapsulated messages (as every piece `makeArrowSerializer`
 * returns does); the end-of-stream marker ends the walk and is not returned. Views into `bytes`, no copies.
 * `header` keeps the flatbuffer's alignment padding (readers locate the table through its root offset).
 * Throws on a truncated or pre-0.15 (no continuation marker) stream.
 */
export function splitArrowMessages(bytes: Uint8Array): ArrowMessage[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: ArrowMessage[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 8 > bytes.length || view.getInt32(at, true) !== CONTINUATION) throw new Error('not an Arrow IPC message');
    const metadataBytes = view.getInt32(at + 4, true);
    if (metadataBytes === 0) break;
    const header = bytes.subarray(at + 8, at + 8 + metadataBytes);
    const bodyStart = at + 8 + metadataBytes;
    const bodyEnd = bodyStart + bodyLength(header);
    if (bodyEnd > bytes.length) throw new Error('truncated Arrow IPC message');
    out.push({ header, body: bytes.subarray(bodyStart, bodyEnd) });
    at = bodyEnd;
  }
  return out;
}

/** `Message.bodyLength` read straight from the flatbuffer (root table -> vtable -> field; 0 when absent). */
function bodyLength(header: Uint8Array): number {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const table = view.getUint32(0, true);
  const vtable = table - view.getInt32(table, true);
  if (view.getUint16(vtable, true) <= BODY_LENGTH_VTABLE_SLOT) return 0;
  const field = view.getUint16(vtable + BODY_LENGTH_VTABLE_SLOT, true);
  return field === 0 ? 0 : Number(view.getBigInt64(table + field, true));
}
