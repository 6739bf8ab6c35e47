// Dataset file formats in the manifest: `params.file_format` and the `csv_*` params, and typed `columns`.
import { z } from 'zod';
import { SourceParamError, TEXT_SOURCE_PARAMS, type TextSource, textSourceOf } from '../../catalog/text-source.js';
import { fullTextSearchSchema } from './search-config.js';

/**
 * A dataset's `columns` entry: Spice's keys (`name`, `description`, `embeddings`, `full_text_search`, `metadata`, ...)
 * are accepted; `type` is floe's: the declared type of a CSV or JSON column.
 */
export const datasetColumnSchema = z.looseObject({
  name: z.string().min(1),
  type: z.string().optional(),
  description: z.string().optional(),
  full_text_search: fullTextSearchSchema.optional(),
});

/** Params read by the file-format layer (never warned about). */
export const FILE_FORMAT_PARAMS: ReadonlySet<string> = new Set(TEXT_SOURCE_PARAMS);

const READ_COLUMN_KEYS = new Set(['name', 'type', 'description', 'full_text_search']);

interface DatasetDoc {
  readonly from: string;
  readonly params: Readonly<Record<string, string>>;
  readonly columns?: readonly z.infer<typeof datasetColumnSchema>[];
}

/**
 * Checks `datasets[index]`'s format and CSV options and its declared column types; returns the warnings (CSV options
 * on a JSON dataset, Spice column keys floe does not read). Throws an Error whose message is `<key path>: <problem>`.
 */
export function checkFileFormat(d: DatasetDoc, index: number): string[] {
  const at = `datasets[${index}]`;
  let source: TextSource | null;
  try {
    source = textSourceOf(d);
  } catch (e) {
    if (e instanceof SourceParamError) throw new Error(`${at}.${e.key}: ${e.message}`);
    throw e;
  }
  const warnings: string[] = [];
  d.columns?.forEach((c, j) => {
    if (c.type !== undefined && source === null) {
      throw new Error(`${at}.columns[${j}].type: a declared type is read for CSV and JSON datasets only`);
    }
    for (const key of Object.keys(c)) {
      if (!READ_COLUMN_KEYS.has(key)) warnings.push(`${at}.columns[${j}].${key}: not supported yet; ignored`);
    }
  });
  if (source?.options.format !== 'csv') {
    for (const key of Object.keys(d.params)) {
      if (key.startsWith('csv_')) warnings.push(`${at}.params.${key}: ignored: the dataset is not CSV`);
    }
  }
  return warnings;
}
