// Avro object container files (the Avro spec's framing) for Iceberg manifests: the one home of `avsc` in floe.
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import avro from 'avsc';

/** A raw Avro schema as JSON: written verbatim into the header, so `field-id` and friends survive. */
export type AvroSchema = Readonly<Record<string, unknown>>;

const MAGIC = Uint8Array.of(0x4f, 0x62, 0x6a, 0x01); // "Obj" 1
const SYNC_BYTES = 16;
/** Records per block: readers hold one block at a time. */
const BLOCK_RECORDS = 4096;

/**
 * Longs as JS numbers while safe (every count and size, floe's snapshot ids), else bigints: Java writes random
 * 63-bit snapshot ids, which avsc's default long refuses.
 */
const LONG = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => {
    const n = buf.readBigInt64LE();
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  },
  toBuffer: (n: number | bigint) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (n: number) => n,
  toJSON: (n: number | bigint) => Number(n),
  isValid: (n: unknown) => typeof n === 'bigint' || Number.isSafeInteger(n),
  compare: (a: number | bigint, b: number | bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

const META = avro.Type.forSchema({ type: 'map', values: 'bytes' });
const LONG_TYPE = avro.Type.forSchema('long');

function typeOf(schema: unknown): avro.Type {
  // Iceberg's `logicalType: map` arrays and `date`/`timestamp-micros` stay their underlying types.
  return avro.Type.forSchema(schema as avro.Schema, { registry: { long: LONG }, wrapUnions: 'never' });
}

/** An object container holding `records` of `schema` (codec null, as icebird reads reliably), with `metadata`. */
export function encodeAvroFile(
  schema: AvroSchema,
  records: readonly unknown[],
  metadata: Readonly<Record<string, string>>,
): Uint8Array {
  const type = typeOf(schema);
  const meta: Record<string, Buffer> = {
    'avro.schema': Buffer.from(JSON.stringify(schema)),
    'avro.codec': Buffer.from('null'),
  };
  for (const [k, v] of Object.entries(metadata)) meta[k] = Buffer.from(v);
  const sync = randomBytes(SYNC_BYTES);
  const parts: Uint8Array[] = [MAGIC, META.toBuffer(meta), sync];
  for (let i = 0; i < records.length; i += BLOCK_RECORDS) {
    const block = records.slice(i, i + BLOCK_RECORDS).map((r) => type.toBuffer(r));
    const data = Buffer.concat(block);
    parts.push(LONG_TYPE.toBuffer(block.length), LONG_TYPE.toBuffer(data.length), data, sync);
  }
  return Buffer.concat(parts);
}

export interface AvroFile {
  /** The header's key-value metadata as text (`avro.schema` and `avro.codec` included). */
  readonly metadata: Readonly<Record<string, string>>;
  /** The writer's schema as JSON. */
  readonly schema: AvroSchema;
  readonly records: unknown[];
}

/** Reads a whole object container (codec `null` or `deflate`); `name` is for error messages. */
export function decodeAvroFile(bytes: Uint8Array, name: string): AvroFile {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + SYNC_BYTES || !MAGIC.every((b, i) => buf[i] === b)) {
    throw new Error(`${name} is not an Avro object container file`);
  }
  const header = META.decode(buf, MAGIC.length);
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(header.value as Record<string, Buffer>)) metadata[k] = v.toString('utf8');
  const schema = JSON.parse(metadata['avro.schema'] ?? 'null') as AvroSchema;
  const codec = metadata['avro.codec'] ?? 'null';
  if (codec !== 'null' && codec !== 'deflate') throw new Error(`${name}: Avro codec ${codec} is not supported`);
  const type = typeOf(schema);
  let pos = header.offset + SYNC_BYTES;
  const records: unknown[] = [];
  while (pos < buf.length) {
    const count = LONG_TYPE.decode(buf, pos);
    const size = LONG_TYPE.decode(buf, count.offset);
    const start = size.offset;
    const end = start + (size.value as number);
    if (count.offset < 0 || size.offset < 0 || end > buf.length) throw new Error(`${name}: truncated Avro block`);
    const data = codec === 'deflate' ? inflateRawSync(buf.subarray(start, end)) : buf.subarray(start, end);
    let at = 0;
    for (let i = 0; i < (count.value as number); i++) {
      const rec = type.decode(data, at);
      if (rec.offset < 0) throw new Error(`${name}: truncated Avro record`);
      records.push(rec.value);
      at = rec.offset;
    }
    pos = end + SYNC_BYTES;
  }
  return { metadata, schema, records };
}
