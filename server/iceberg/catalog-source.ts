// `icebergCatalogSources`: each Iceberg catalog of the manifest as a REST catalog (real metadata and snapshots).
import type { IcebergCatalogs } from '../../catalog/iceberg/iceberg-catalogs.js';
import type { RestCatalogSource } from './rest-source.js';

/**
 * One source per catalog: its schemas and tables as the running catalog knows them (found at start, changed by
 * SQL), and each table's current `vN.metadata.json` with its location, so a client reads floe's snapshots itself.
 */
export function icebergCatalogSources(catalogs: IcebergCatalogs): RestCatalogSource[] {
  return catalogs.names().map((name) => ({
    name,
    schemas: async () => catalogs.schemas(name) ?? [],
    tables: async (schema) => catalogs.tables(name, schema),
    loadTable: async (schema, table) => catalogs.loadTable(name, schema, table),
  }));
}
