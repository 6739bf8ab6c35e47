// CSV/JSON test tables: files written to a temp dir, read through the engine's text readers, queried with SQL.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cellText,
  createEngine,
  createMapCatalog,
  createTextTable,
  inferTextSchema,
  type TableProvider,
  type TextFormat,
  type TextReadOptions,
  textReadOptions,
  typeName,
} from '../../engine/index.js';

export interface TextFixture {
  readonly dir: string;
  /** Writes `text` to `name` in the fixture's dir; returns its path. */
  write(name: string, text: string | Uint8Array): Promise<string>;
  remove(): Promise<void>;
}

export async function textFixture(): Promise<TextFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'floe-text-'));
  return {
    dir,
    async write(name, text) {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A table over `paths` with its schema inferred, as the catalog builds it. */
export async function textTable(
  paths: readonly string[],
  format: TextFormat,
  options: Partial<TextReadOptions> = {},
): Promise<TableProvider> {
  const opts = textReadOptions(format, options);
  return createTextTable(paths, opts, await inferTextSchema(paths, opts));
}

/** `name type` per column, PostgreSQL spellings. */
export function columnsOf(table: TableProvider): string[] {
  return table.schema.fields.map((f) => `${f.name} ${typeName(f.type)}`);
}

/** Rows of `sql` over `table` (named `t`) as text, NULL as null. */
export async function queryRows(table: TableProvider, sql: string): Promise<(string | null)[][]> {
  const engine = createEngine({ catalog: createMapCatalog(new Map([['t', table]])) });
  const result = await engine.execute(sql);
  const rows: (string | null)[][] = [];
  for await (const b of result.batches) {
    for (let i = 0; i < b.length; i++) rows.push(b.columns.map((c) => cellText(c, i)));
  }
  return rows;
}
