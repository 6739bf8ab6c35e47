// `McpSession`: what one MCP session's tools run with: the query service, the datasets, and the caller's principal.
import type { Principal } from '../auth/principal.js';
import type { DatasetState } from '../datasets/datasets.js';
import type { QueryService } from '../runtime/query-service.js';
import type { SearchService } from '../search/search-service.js';
import type { ProxyTools } from './proxy/proxy-tools.js';

export interface McpSession {
  readonly service: QueryService;
  /** The configured datasets (the running server's `datasets.list`). */
  datasets(): readonly DatasetState[];
  /** Who every query of the session runs as (decided by the auth gate when the session opened). */
  readonly principal: Principal;
  /** The `sql` tool's largest answer in bytes (`runtime.mcp.max_result_size`); absent: 64 MiB. */
  readonly maxResultBytes?: number;
  /** Tools of the manifest's external MCP servers (`<entry>/<tool>`); absent: none. */
  readonly proxied?: ProxyTools;
  /** Full-text search for the `search` tool; absent: no dataset is searchable. */
  readonly search?: SearchService;
}
