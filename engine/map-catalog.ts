// `createMapCatalog`: a Catalog over a fixed map of table providers.
import type { Catalog, TableProvider } from './catalog.js';

export function createMapCatalog(tables: ReadonlyMap<string, TableProvider>): Catalog {
  const names = [...tables.keys()].sort();
  return {
    table(name) {
      const exact = tables.get(name);
      if (exact) return exact;
      const lower = name.toLowerCase();
      const hits = names.filter((n) => n.toLowerCase() === lower);
      return hits.length === 1 ? tables.get(hits[0]!) : undefined;
    },
    tableNames: () => names,
  };
}
