// `readCsvRecords`: a CSV file's records, streamed through csv-parse (the only importer of csv-parse).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { ExecError } from '../../errors.js';
import { readChunks } from './read-chunks.js';
import { readFailure } from './read-errors.js';
import type { TextReadOptions } from './text-options.js';

/** One record: its fields as written (unquoted, unescaped) and the line it starts on (1-based). */
export interface CsvRecord {
  readonly fields: string[];
  readonly line: number;
}

/**
 * Every record of the CSV file at `location`, header included, in order. Blank lines are skipped; a UTF-8 BOM is
 * dropped; a record may have any number of fields (the caller checks the count, to name the line). A malformed
 * file (a quote never closed, a stray quote) throws an ExecError naming the file and line. Stopping early
 * (`return` on the iterator) stops the reads.
 */
export async function* readCsvRecords(
  location: string,
  options: TextReadOptions,
  chunkBytes?: number,
): AsyncGenerator<CsvRecord> {
  const parser = parse({
    delimiter: options.delimiter,
    quote: options.quote,
    escape: options.escape ?? options.quote,
    bom: true,
    relax_column_count: true,
  });
  const done = pipeline(Readable.from(readChunks(location, chunkBytes, options.s3)), parser);
  // The error surfaces through the iteration below; this keeps it from being reported unhandled as well.
  done.catch(() => {});
  let line = 1;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      const at = line;
      line += 1 + newlinesIn(fields);
      // A blank line (csv-parse's `skip_empty_lines` would do this, but its line count costs a copy per record).
      if (fields.length === 1 && fields[0] === '') continue;
      yield { fields, line: at };
    }
  } catch (e) {
    if (e instanceof CsvError) throw malformed(location, e);
    throw readFailure(location, e);
  }
}

/** Line breaks inside a record's (quoted) fields; a CRLF counts once. */
function newlinesIn(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) {
    for (let at = f.indexOf('\n'); at >= 0; at = f.indexOf('\n', at + 1)) n++;
  }
  return n;
}

function malformed(location: string, e: CsvError): ExecError {
  const lines = (e as unknown as { lines?: number }).lines;
  // csv-parse ends its messages with where it was ("... at line 5 instead of delimiter"): the line is said first.
  const detail = e.message.replace(/:? (?:at|on) line \d+/, '');
  return new ExecError(`${location} line ${lines ?? '?'}: malformed CSV: ${detail}`);
}
