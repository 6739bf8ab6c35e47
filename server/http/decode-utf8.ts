// `decodeUtf8`: strict UTF-8 decoding with the reference runtime's error text (Rust's `Utf8Error`).

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body is not valid UTF-8; the message names the first bad byte. */
export class Utf8Error extends Error {}

/**
 * Decodes `bytes` or throws `Utf8Error` with Rust's wording, e.g. `invalid utf-8 sequence of 1 bytes from
 * index 3` or `incomplete utf-8 byte sequence from index 5` (a sequence cut off by the end of the input).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    throw new Utf8Error(describeInvalid(bytes));
  }
}

function describeInvalid(bytes: Uint8Array): string {
  let i = 0;
  while (i < bytes.length) {
    const need = sequenceLength(bytes[i] as number);
    if (need === 0) return invalidAt(i, 1);
    for (let k = 1; k < need; k++) {
      if (i + k >= bytes.length) return `incomplete utf-8 byte sequence from index ${i}`;
      if (!isContinuation(bytes[i + k] as number, bytes[i] as number, k)) return invalidAt(i, k);
    }
    i += need;
  }
  return invalidAt(0, 1);
}

function invalidAt(index: number, length: number): string {
  return `invalid utf-8 sequence of ${length} bytes from index ${index}`;
}

// Lead byte -> sequence length, 0 for bytes that cannot start a sequence (continuations, C0, C1, F5..FF).
function sequenceLength(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

// The second byte's range is narrower after E0, ED, F0, F4 (no overlongs, surrogates or > U+10FFFF).
function isContinuation(b: number, lead: number, k: number): boolean {
  if (k === 1) {
    if (lead === 0xe0) return b >= 0xa0 && b <= 0xbf;
    if (lead === 0xed) return b >= 0x80 && b <= 0x9f;
    if (lead === 0xf0) return b >= 0x90 && b <= 0xbf;
    if (lead === 0xf4) return b >= 0x80 && b <= 0x8f;
  }
  return b >= 0x80 && b <= 0xbf;
}
