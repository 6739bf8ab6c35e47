// `RestCatalogSource`: what the Iceberg REST routes serve, one per top-level namespace (a floe catalog).
import type { TableMetadata } from '../../catalog/iceberg/spec.js';

/** A table as loadTable answers it: `metadataLocation` null for synthesized metadata (a dataset, no files). */
export interface LoadedTable {
  readonly metadataLocation: string | null;
  readonly metadata: TableMetadata;
  /** loadTable's `config` (how a client reaches the files: an S3 endpoint and region, never credentials). */
  readonly config?: Readonly<Record<string, string>>;
}

/**
 * One catalog of the REST API (namespace level 1): an Iceberg catalog of the manifest (real metadata, files and
 * snapshots) or the datasets' catalog (synthesized metadata with stable UUIDs). Undefined answers mean "no such
 * schema / table" (the routes turn them into NoSuch*Exception 404s).
 */
export interface RestCatalogSource {
  readonly name: string;
  /** Schema names (namespace level 2), sorted. */
  schemas(): Promise<readonly string[]>;
  /** Table names of `schema`, sorted; undefined when the schema does not exist. */
  tables(schema: string): Promise<readonly string[] | undefined>;
  loadTable(schema: string, table: string): Promise<LoadedTable | undefined>;
}
