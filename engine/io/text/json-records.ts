// `readJsonRecords`: the objects of a JSON file: NDJSON (one per line) or one top-level array of objects.
import { ExecError } from '../../errors.js';
import type { S3StoreConfig } from '../object-store/s3-config.js';
import { JsonShapeError, JsonSplitter } from './json-splitter.js';
import { readChunks } from './read-chunks.js';
import { readFailure } from './read-errors.js';

/** One object and the line it starts on (1-based). */
export interface JsonRecord {
  readonly value: Record<string, unknown>;
  readonly line: number;
}

/**
 * Every object of the JSON file at `location`, in order: a file of objects one after another (NDJSON, or objects
 * spread over several lines), or a file that is one array of objects. Anything else at that level (a number, a
 * nested array, text after the array), or an object that does not parse, throws an ExecError naming file and line.
 */
export async function* readJsonRecords(
  location: string,
  chunkBytes?: number,
  s3?: S3StoreConfig,
): AsyncGenerator<JsonRecord> {
  const splitter = new JsonSplitter();
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  try {
    for await (const bytes of readChunks(location, chunkBytes, s3)) {
      yield* parsed(location, splitter.feed(decoder.decode(bytes, { stream: true })));
    }
    yield* parsed(location, splitter.feed(decoder.decode()));
    splitter.end();
  } catch (e) {
    if (e instanceof JsonShapeError) throw new ExecError(`${location} line ${e.line}: ${e.message}`);
    throw readFailure(location, e);
  }
}

function* parsed(location: string, texts: readonly { text: string; line: number }[]): Generator<JsonRecord> {
  for (const { text, line } of texts) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new ExecError(`${location} line ${line}: invalid JSON: ${(e as Error).message}`);
    }
    yield { value: value as Record<string, unknown>, line };
  }
}
