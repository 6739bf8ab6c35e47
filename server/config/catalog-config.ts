// `catalogs:` in the manifest: Iceberg warehouses floe serves as catalogs (`iceberg:file:///wh`, `iceberg:s3://b/wh`).

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { S3_PARAMS, s3ConfigOf } from '../../catalog/s3-params.js';
import type { S3StoreConfig } from '../../engine/index.js';
import { parseByteSize } from './results-cache-config.js';

/** A catalog floe serves: tables `<name>.<schema>.<table>` of the warehouse at `warehouse`. */
export interface CatalogConfig {
  readonly name: string;
  /** The manifest's `from`, as written (listed by the REST API's config, never with params). */
  readonly from: string;
  /** The warehouse's root URI, without a trailing slash: `file:///abs/wh` or `s3://bucket/wh`. */
  readonly warehouse: string;
  /** `read_write` lets SQL create, drop and write tables; `read` (the default) refuses every write. */
  readonly writable: boolean;
  readonly s3?: S3StoreConfig;
  /** `target_file_size`: data files roll over at this size (default 128 MiB). */
  readonly targetFileBytes: number;
}

/** The REST API's catalog of the datasets (`floe.public.<dataset>`): no Iceberg catalog may take its name. */
export const DATASETS_CATALOG = 'floe';

/** Params a catalog reads beside the S3 ones. */
export const CATALOG_PARAMS = ['target_file_size'];

export const catalogSchema = z.strictObject({
  from: z.string(),
  name: z
    .string()
    .min(1)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an identifier (letters, digits, _)'),
  description: z.string().optional(),
  access: z.enum(['read', 'read_write']).default('read'),
  params: z.record(z.string(), z.unknown()).default({}),
  include: z.array(z.string()).optional(),
});

export type CatalogDocument = z.infer<typeof catalogSchema>;

/**
 * The warehouse URI of `from` (`iceberg:` + a `file:` URL, a path relative to `baseDir`, or `s3://bucket/prefix`),
 * or the problem: other kinds (`iceberg:https://…` REST catalogs, Glue) are not supported yet.
 */
export function warehouseOf(from: string, baseDir: string): { warehouse: string } | { problem: string } {
  const m = /^iceberg:(.+)$/i.exec(from);
  if (m === null)
    return { problem: `expected 'iceberg:<warehouse>' (file:///abs/path or s3://bucket/path), got '${from}'` };
  const where = m[1]!;
  if (/^s3:\/\/[^/]+/i.test(where)) return { warehouse: where.replace(/\/+$/, '') };
  if (/^file:\/\//i.test(where)) return { warehouse: where.replace(/\/+$/, '') };
  if (/^file:/i.test(where)) return { warehouse: pathToFileURL(resolve(baseDir, where.slice(5))).href };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(where))
    return {
      problem: `catalog kind '${where.split(':')[0]}' is not supported yet (floe serves file: and s3: warehouses)`,
    };
  return { warehouse: pathToFileURL(resolve(baseDir, where)).href };
}

/** The validated catalog; throws a message `catalogs[i].<key>: <problem>` (never quoting a secret). */
export function catalogConfig(doc: CatalogDocument, index: number, baseDir: string): CatalogConfig | string[] {
  const at = (key: string) => `catalogs[${index}].${key}`;
  if (doc.name.toLowerCase() === DATASETS_CATALOG)
    return [
      `${at('name')}: '${DATASETS_CATALOG}' is the datasets' catalog in the Iceberg REST API; choose another name`,
    ];
  const place = warehouseOf(doc.from, baseDir);
  if ('problem' in place) return [`${at('from')}: ${place.problem}`];
  const params = Object.fromEntries(
    Object.entries(doc.params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  const target = params.target_file_size === undefined ? 128 * 1024 * 1024 : parseByteSize(params.target_file_size);
  if (target === null || target < 1024)
    return [`${at('params.target_file_size')}: expected a size of at least 1KiB (e.g. 128MiB)`];
  const config = {
    name: doc.name,
    from: doc.from,
    warehouse: place.warehouse,
    writable: doc.access === 'read_write',
    targetFileBytes: target,
  };
  if (!place.warehouse.startsWith('s3://')) return config;
  return { ...config, s3: s3ConfigOf(params) };
}

/** Param keys a catalog ignores (with a warning). */
export function unknownCatalogParams(doc: CatalogDocument): string[] {
  const known = new Set([...CATALOG_PARAMS, ...S3_PARAMS]);
  return Object.keys(doc.params).filter((k) => !known.has(k));
}
