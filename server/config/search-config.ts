// Dataset full-text search in the manifest: the `columns` marked `full_text_search` and the row id of each hit.
import { z } from 'zod';

/** A dataset's full-text search: the text columns indexed and the columns that identify a hit's row. */
export interface SearchConfig {
  /** The indexed columns, in manifest order (each must be a text column: checked when the index is built). */
  readonly columns: readonly string[];
  /** The columns returned with each hit as its primary key (Spice's `row_id`). */
  readonly rowId: readonly string[];
}

/** A column's `full_text_search` (Spice's shape). `enabled` defaults to true: writing the key asks for search. */
export const fullTextSearchSchema = z.strictObject({
  enabled: z.boolean().default(true),
  row_id: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
});

interface SearchDoc {
  readonly columns?: readonly { readonly name: string; readonly full_text_search?: unknown }[];
  readonly acceleration?: { readonly primary_key?: unknown };
}

/**
 * The dataset's search, or undefined when no column enables it. The row id is the `row_id` the columns give (all
 * that give one must agree), else the acceleration's `primary_key`; floe datasets have no key of their own, so
 * one of them is required. Throws an Error whose message is `<key path>: <problem>`.
 */
export function searchConfigOf(d: SearchDoc, index: number): SearchConfig | undefined {
  const at = `datasets[${index}]`;
  const columns: string[] = [];
  let rowId: readonly string[] | undefined;
  let rowIdAt = '';
  d.columns?.forEach((c, j) => {
    const fts = c.full_text_search as z.infer<typeof fullTextSearchSchema> | undefined;
    if (fts === undefined || !fts.enabled) return;
    if (columns.includes(c.name)) throw new Error(`${at}.columns[${j}].name: column '${c.name}' is listed twice`);
    columns.push(c.name);
    if (fts.row_id === undefined) return;
    const ids = typeof fts.row_id === 'string' ? [fts.row_id] : fts.row_id;
    const here = `${at}.columns[${j}].full_text_search.row_id`;
    if (rowId !== undefined && ids.join('\0') !== rowId.join('\0')) {
      throw new Error(`${here}: differs from ${rowIdAt} (a dataset has one row id)`);
    }
    rowId = ids;
    rowIdAt = here;
  });
  if (columns.length === 0) return undefined;
  rowId ??= primaryKeyOf(d.acceleration?.primary_key);
  if (rowId === undefined) {
    throw new Error(
      `${at}.columns: full_text_search needs a row_id (the columns that identify a row, returned with each hit), ` +
        'e.g. full_text_search: {enabled: true, row_id: [id]}, or acceleration.primary_key',
    );
  }
  return { columns, rowId };
}

/** `primary_key: id`, `primary_key: "(a, b)"` or `[a, b]` as a list of names; undefined for anything else. */
function primaryKeyOf(key: unknown): string[] | undefined {
  if (Array.isArray(key) && key.length > 0 && key.every((k) => typeof k === 'string' && k !== '')) return key;
  if (typeof key !== 'string') return undefined;
  const names = key
    .replace(/^\((.*)\)$/, '$1')
    .split(',')
    .map((n) => n.trim());
  return names.every((n) => n !== '') ? names : undefined;
}
